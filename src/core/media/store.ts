// Where uploaded bytes live: a @tus/file-store folder under DATA_DIR (default) or a @tus/s3-store bucket
// (MEDIA_STORE=s3). Opened on first use, so a process that never touches a file creates no folder and loads no
// S3 client.
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { DataStore } from '@tus/utils';
import type { MediaStoreConfig } from '../../platform/config/index.js';

export interface MediaStore {
  datastore(): Promise<DataStore>;
  /** The bytes of a complete upload. */
  read(id: string): Promise<Readable>;
  /** Removes the bytes and the store's record of an upload; an upload the store never had is no error. */
  remove(id: string): Promise<void>;
}

type Readable_ = DataStore & { read(id: string): Readable | Promise<Readable> };

async function open(config: MediaStoreConfig, dataDir: string): Promise<Readable_> {
  if (config.kind === 'file') {
    const { FileStore } = await import('@tus/file-store');
    return new FileStore({ directory: join(dataDir, 'uploads') });
  }
  const { S3Store } = await import('@tus/s3-store');
  return new S3Store({
    partSize: 8 * 1024 * 1024,
    s3ClientConfig: {
      bucket: config.bucket,
      region: config.region,
      ...(config.endpoint ? { endpoint: config.endpoint } : {}),
      forcePathStyle: config.forcePathStyle,
      ...(config.accessKeyId && config.secretAccessKey
        ? { credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey } }
        : {}),
    },
  });
}

// A store's 404, or a file store's missing record: its bytes went first, so a removal stopped between the two (or
// bytes written without a record) leaves nothing to remove.
const isNotFound = (err: unknown): boolean =>
  typeof err === 'object' &&
  err !== null &&
  ((err as { status_code?: number }).status_code === 404 || (err as { code?: string }).code === 'ENOENT');

export function mediaStore(config: MediaStoreConfig, dataDir: string): MediaStore {
  let opened: Promise<Readable_> | undefined;
  const store = () => (opened ??= open(config, dataDir));
  return {
    datastore: store,
    async read(id) {
      return (await store()).read(id);
    },
    async remove(id) {
      try {
        await (await store()).remove(id);
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    },
  };
}
