import type { HTTPMethods } from 'fastify';

/**
 * Each upstream path answers every common method, so a wrong one gets a 405 naming the right one instead of a 404
 * that would hide the mistake.
 */
export const ALL_METHODS: HTTPMethods[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
