/** Answered by packages/kit-tests/bench/bench-server.ts only: a constant from the same Fastify, the floor of the step endpoint. */
export const BARE_ROUTE = '/bench/bare';
