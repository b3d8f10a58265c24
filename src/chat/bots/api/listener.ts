// The Bot API: its own OpenAPI document (generated/openapi/bot.json) and envelope, served on the chat port. The
// chat listener hands it every request whose path starts with /bot; the Telegram-shaped /bot<token>/<method> is
// rewritten to /bot/<token>/<method> first, because Fastify's router cannot take a parameter glued to a literal
// prefix inside one path segment.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { buildListener } from '../../../platform/http/server.js';
import { loadSpecification } from '../../../platform/http/specification.js';
import type { Logger } from '../../../platform/logger.js';
import type { MediaStore } from '../../../core/media/store.js';
import type { Readiness } from '../../../platform/readiness.js';
import type { BotDeps } from '../deps.js';
import { ForwardService } from '../../messages/forward.js';
import { PinService } from '../../pins/service.js';
import { BotChatAdministration } from './chat-admin.js';
import { BotChatMethods } from './chat-methods.js';
import { botContext, type BotContext } from './context.js';
import { renderBotError } from './errors.js';
import { mountFileDownloads } from './file-downloads.js';
import { BotFiles } from './files.js';
import { addFormParsers } from './forms.js';
import { addParameterRules, methodParameters } from './parameters.js';
import { addReplyMarkupCheck, markupMethods } from './reply-markup-check.js';
import { addEmptyJsonParser } from './empty-json.js';
import { declaredMethods, tokenGate } from './gate.js';
import { botApiHandlers, type BotOperations } from './handlers.js';
import { BotMessages } from './messages.js';
import { BotPolls } from './polls.js';
import type { BotSendLimit } from './send-limit.js';
import { BotPollers } from '../updates/pollers.js';
import { BotUpdates } from './updates.js';

export interface BotListenerOptions {
  deps: BotDeps;
  sendLimit: BotSendLimit;
  longPollMaxSeconds: number;
  log: Logger;
  bodyLimit: number;
  media: MediaStore;
  readiness: () => Promise<Readiness>;
}

/** Telegram's own limit for files bots upload; the multipart body may also carry the other fields. */
const botUploadCeiling = 50 * 1024 * 1024;

const formTypes = ['application/x-www-form-urlencoded', 'multipart/form-data'];

/** Form bodies are validated with the JSON body's schema, once forms.ts has turned them into JSON shapes. */
function withFormBodies(spec: Record<string, unknown>): Record<string, unknown> {
  const copy = structuredClone(spec) as { paths: Record<string, Record<string, { requestBody?: { content: Record<string, unknown> } }>> };
  for (const item of Object.values(copy.paths)) {
    for (const op of Object.values(item)) {
      const json = op?.requestBody?.content?.['application/json'];
      if (json) for (const type of formTypes) op.requestBody!.content[type] = json;
    }
  }
  return copy;
}

export async function buildBotListener(options: BotListenerOptions): Promise<FastifyInstance> {
  const { deps } = options;
  const specification = await loadSpecification('bot');
  const messages = new BotMessages(deps, options.sendLimit);
  const chats = new BotChatMethods(deps, messages, options.sendLimit, new PinService(deps), new ForwardService(deps));
  const files = new BotFiles(deps, options.media, messages);
  const multipartLimit = options.bodyLimit + Math.min(deps.config.uploadMaxBytes, botUploadCeiling);
  const app = await buildListener<BotOperations, BotContext>({
    name: 'bot',
    log: options.log,
    bodyLimit: options.bodyLimit,
    specification: withFormBodies(specification),
    handlers: botApiHandlers(
      deps,
      messages,
      new BotUpdates(deps.sql, deps.waiters, options.longPollMaxSeconds, new BotPollers(deps.waiters.publisher, deps.waiters)),
      chats,
      files,
      new BotChatAdministration(deps, options.sendLimit),
      new BotPolls(deps, options.sendLimit),
    ),
    context: botContext,
    onRequest: tokenGate(deps.sql, declaredMethods(specification)),
    readiness: options.readiness,
    renderError: renderBotError,
    // As Telegram's, the methods ignore fields they do not know; a `__proto__` or `constructor` key is one more, and is
    // dropped by the parser rather than refusing the whole body.
    poisonedJsonKeys: 'remove',
    configure: (app) => {
      const parameters = methodParameters(specification);
      addFormParsers(app, multipartLimit, parameters);
      addParameterRules(app, parameters);
      addReplyMarkupCheck(app, markupMethods(specification));
      mountFileDownloads(app, deps.sql, options.media);
      addEmptyJsonParser(app);
    },
  });
  await app.ready();
  return app;
}

/** Longer than any token this server makes; such a path segment is no token. */
const maxTokenLength = 256;

/**
 * /bot<token>/<method> → /bot/<token>/<method>; other paths as they are. A token segment too long to be a token
 * is replaced by one that is not a token either (answered 401), before the router refuses it as too long (414).
 */
export function botApiPath(url: string): string {
  if (url.startsWith('/file/bot')) return `/file${botApiPath(url.slice(5))}`;
  const path = url.startsWith('/bot') && !url.startsWith('/bot/') ? `/bot/${url.slice(4)}` : url;
  const end = path.indexOf('/', 5);
  return end - 5 > maxTokenLength ? `/bot/-${path.slice(end)}` : path;
}

/** For the chat listener: hands /bot... requests (and the file downloads under /file/bot...) to the Bot API. */
export function botApiDiversion(bot: FastifyInstance): (req: IncomingMessage, res: ServerResponse) => boolean {
  return (req, res) => {
    const url = req.url ?? '';
    if (!url.startsWith('/bot') && !url.startsWith('/file/bot')) return false;
    req.url = botApiPath(url);
    bot.routing(req, res);
    return true;
  };
}

/** For the chat listener: errors Node raises before routing, on a /bot path, answer in the Bot API's envelope. */
export function botApiClientErrors(path: string): typeof renderBotError | undefined {
  return path.startsWith('/bot') || path.startsWith('/file/bot') ? renderBotError : undefined;
}
