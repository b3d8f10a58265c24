// The media service on the chat listener, outside /api/v1 and outside the chat OpenAPI document (it speaks tus and
// serves bytes): /media/uploads (tus, upload-token auth) and /media/files/{id} (downloads, bearer JWT).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Server } from '@tus/server';
import type { Caller } from '../base/context.js';
import type { ChatDeps } from '../base/deps.js';
import { mountDownloads } from './downloads.js';
import type { MediaStore } from '../../core/media/store.js';
import { buildTusServer, mountTus } from './tus.js';

export async function mountMedia(
  app: FastifyInstance,
  deps: ChatDeps,
  store: MediaStore,
  authenticate: (request: FastifyRequest) => Promise<Caller>,
): Promise<void> {
  let tus: Promise<Server> | undefined;
  await mountTus(app, () => (tus ??= store.datastore().then((datastore) => buildTusServer(deps, store, datastore))));
  mountDownloads(app, deps, store, authenticate);
}
