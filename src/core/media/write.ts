// Bytes held whole (one request's body, or an archive built in chunks), written to the media store as one complete
// upload.
import { Readable } from 'node:stream';
import { Upload } from '@tus/server';
import type { MediaStore } from './store.js';

export async function writeWhole(
  store: MediaStore,
  id: string,
  bytes: Uint8Array | readonly Uint8Array[],
  meta: { fileName: string; contentType: string },
): Promise<void> {
  const chunks = (Array.isArray(bytes) ? bytes : [bytes]) as readonly Uint8Array[];
  const size = chunks.reduce((n, c) => n + c.length, 0);
  const datastore = await store.datastore();
  await datastore.create(new Upload({ id, size, offset: 0, metadata: { filename: meta.fileName, filetype: meta.contentType } }));
  await datastore.write(Readable.from(chunks.map((c) => Buffer.from(c.buffer, c.byteOffset, c.length))), id, 0);
}
