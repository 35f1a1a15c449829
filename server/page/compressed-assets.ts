import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from '../http/error-handling';

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

const contentTypes: Record<string, string> = { js: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8' };
/** Vite's output: flat, hashed names. Scripts and styles are compressed; other flat names go to @fastify/static. */
const assetName = /^[\w-]+\.(js|css)$/;
/** A flat file name: no separator, no leading dot, so nothing outside assets/ can be named (`..%2f` decodes to `../`). */
const flatName = /^[\w-][\w.-]*$/;

interface Variants {
  gzip: Buffer;
  /** Quality 11 takes most of a second for the entry chunk: made in the background, served once ready. */
  br?: Buffer;
}

/**
 * The page's scripts and styles compressed (bench/page.ts: on Slow 4G the uncompressed entry chunk alone took about
 * 1.8 s to download, most of the LCP). Compressed once per file on its first request, kept in memory: assets are
 * hashed and immutable, and only files that exist are kept, so the cache is bounded by the build.
 */
export function registerCompressedAssets(app: FastifyInstance, pageDirectory: string): void {
  const cache = new Map<string, Promise<Variants | undefined>>();

  const variantsOf = (name: string): Promise<Variants | undefined> => {
    let variants = cache.get(name);
    if (!variants) {
      variants = compress(join(pageDirectory, 'assets', name));
      cache.set(name, variants);
      // A missing file is not cached: unknown names must not grow the map.
      const forget = () => void cache.delete(name);
      variants.then((found) => found ?? forget(), forget);
    }
    return variants;
  };

  app.get('/assets/:name', async (request, reply) => {
    const { name } = request.params as { name: string };
    if (!flatName.test(name)) throw new HttpError(404, 'not_found', `No asset named ${JSON.stringify(name)}`);
    const encoding = assetName.test(name) ? acceptedEncoding(request) : undefined;
    const variants = encoding ? await variantsOf(name) : undefined;
    if (!encoding || !variants) return reply.sendFile(`assets/${name}`);
    const useBrotli = encoding === 'br' && variants.br !== undefined;
    reply.header('vary', 'accept-encoding');
    reply.header('content-encoding', useBrotli ? 'br' : 'gzip');
    reply.type(contentTypes[name.split('.').pop()!]!);
    return useBrotli ? variants.br : variants.gzip;
  });
}

async function compress(path: string): Promise<Variants | undefined> {
  let raw: Buffer;
  try {
    raw = await readFile(path);
  } catch {
    return undefined;
  }
  const variants: Variants = { gzip: await gzipAsync(raw, { level: 9 }) };
  brotliAsync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length } }).then(
    (br) => (variants.br = br),
    () => {},
  );
  return variants;
}

function acceptedEncoding(request: FastifyRequest): 'br' | 'gzip' | undefined {
  const header = request.headers['accept-encoding'] ?? '';
  // Good enough for browsers, which never send q=0 for these: br when offered, else gzip.
  if (/\bbr\b/.test(header)) return 'br';
  if (/\bgzip\b/.test(header)) return 'gzip';
  return undefined;
}
