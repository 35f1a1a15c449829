import http from 'node:http';
import { FileStore } from '@tus/file-store';
import { Server } from '@tus/server';

/**
 * The floor of the upload benchmark: @tus/server at its barest, with the FileStore the kit writes through, on node:http
 * in a process of its own, started as the kit's server is (packages/kit-tests/bench/bench-server-process.ts). Nothing is checked,
 * authenticated, recorded or cleaned. BENCH_TUS_DIRECTORY: where the files go (the same disk as the kit's).
 */
const directory = process.env.BENCH_TUS_DIRECTORY;
if (!directory) throw new Error('BENCH_TUS_DIRECTORY: the directory of the uploads');
const tus = new Server({ path: '/files', datastore: new FileStore({ directory }) });
const server = http.createServer((request, response) => void tus.handle(request, response));

server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.send?.({ url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` });
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
