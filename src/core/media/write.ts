// Bytes that arrive whole in one request, written to the media store as one complete upload.
import { Readable } from 'node:stream';
import { Upload } from '@tus/server';
import type { MediaStore } from './store.js';

export async function writeWhole(
  store: MediaStore,
  id: string,
  bytes: Uint8Array,
  meta: { fileName: string; contentType: string },
): Promise<void> {
  const datastore = await store.datastore();
  await datastore.create(
    new Upload({ id, size: bytes.length, offset: 0, metadata: { filename: meta.fileName, filetype: meta.contentType } }),
  );
  await datastore.write(Readable.from([Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length)]), id, 0);
}
