// Downloads as Telegram's: GET /file/bot<token>/<file_path> on the chat listener (rewritten to
// /file/bot/<token>/<file_path> before routing, like the methods' paths) streams a file's bytes to a bot that can
// see it. A wrong token is 401; a path that names no file the bot can see is 404, both in the Bot API's envelope.
import type { FastifyInstance } from 'fastify';
import type { SqlPool } from '../../../platform/db/sql.js';
import { sendStoredFile } from '../../media/downloads.js';
import type { MediaStore } from '../../../core/media/store.js';
import { BotApiError, botApiErrors } from './errors.js';
import { filePathPrefix } from './file-ids.js';
import { visibleFile } from './file-visibility.js';
import { findBot } from './gate.js';

export const fileDownloadRoute = `/file/bot/:token/${filePathPrefix}:fileId`;

export function mountFileDownloads(app: FastifyInstance, sql: SqlPool, store: MediaStore): void {
  app.get(fileDownloadRoute, async (request, reply) => {
    const { token, fileId } = request.params as { token: string; fileId: string };
    const bot = token === '' ? null : await findBot(sql, token);
    if (!bot) throw botApiErrors.unauthorized();
    const file = await visibleFile(sql, bot, fileId);
    if (!file) throw new BotApiError(404, 'Not Found');
    return sendStoredFile(reply, file, await store.read(file.id));
  });
}
