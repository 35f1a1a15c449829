import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { bearer } from './task-app';
import { TUS_HEADERS, tusMetadata } from './tus-uploads';

/** A small JPEG of one colour, as a phone's photo would arrive (the server decodes and encodes it again). */
function photoOf(color = '#2a6'): Promise<Buffer> {
  return sharp({ create: { width: 64, height: 48, channels: 3, background: color } })
    .jpeg()
    .toBuffer();
}

/**
 * One file through the real tus routes (docs/api.md#uploads), over loopback HTTP (tus answers on the raw response,
 * which `inject` does not carry): the creation, then the bytes in one PATCH. The app is made to listen on a free port
 * first if it does not yet. Returns the upload's id, the last segment of its Location.
 */
async function uploadFile(
  app: FastifyInstance,
  token: string,
  input: { stepId: string; field: string; bytes: Buffer; type?: string },
): Promise<string> {
  if (!app.server.listening) await app.listen({ host: '127.0.0.1', port: 0 });
  const endpoint = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/task/uploads`;
  const metadata = { filename: 'photo.jpg', filetype: input.type ?? 'image/jpeg', stepId: input.stepId, field: input.field };
  const tus = { ...bearer(token), ...TUS_HEADERS };
  const created = await fetch(endpoint, {
    method: 'POST',
    headers: {
      ...tus,
      'upload-length': String(input.bytes.length),
      'upload-metadata': tusMetadata(metadata),
    },
  });
  if (created.status !== 201) throw new Error(`creating the upload answered ${created.status}: ${await created.text()}`);
  const url = new URL(created.headers.get('location')!, endpoint);
  const patched = await fetch(url, {
    method: 'PATCH',
    headers: { ...tus, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
    body: new Uint8Array(input.bytes),
  });
  if (patched.status !== 204) throw new Error(`sending the upload's bytes answered ${patched.status}: ${await patched.text()}`);
  return url.pathname.split('/').pop()!;
}

/** work-authorization's `photos` step answered as the page answers it: a photo of each side, uploaded first. */
export async function documentPhotos(app: FastifyInstance, token: string): Promise<{ front: string; back: string }> {
  const front = await uploadFile(app, token, { stepId: 'photos', field: 'front', bytes: await photoOf('#2a6') });
  const back = await uploadFile(app, token, { stepId: 'photos', field: 'back', bytes: await photoOf('#a62') });
  return { front, back };
}
