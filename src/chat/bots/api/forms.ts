// Form bodies, as Telegram reads them: application/x-www-form-urlencoded and multipart/form-data, every value a
// string, objects and arrays JSON-encoded (libraries send reply_markup so). Values are turned into the JSON shapes
// the methods' schemas describe, then validated like a JSON body. File parts are taken by sendDocument and
// sendPhoto only: each is kept aside on the request and its field reads "attach://<field>", as Telegram's own
// references to file parts do. setWebhook's certificate is read as text.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { botApiErrors } from './errors.js';

/** Methods whose multipart bodies may carry files. */
const fileMethods = new Set(['sendDocument', 'sendPhoto']);
export const attachPrefix = 'attach://';

declare module 'fastify' {
  interface FastifyRequest {
    botFiles?: Map<string, File>;
  }
}

const integerFields = new Set([
  'message_id',
  'reply_to_message_id',
  'message_thread_id',
  'limit',
  'timeout',
  'max_connections',
  'cache_time',
]);
const booleanFields = new Set([
  'show_alert',
  'drop_pending_updates',
  'disable_notification',
  'protect_content',
  'disable_web_page_preview',
  'allow_sending_without_reply',
]);
// Chat and user ids: integers as Telegram's, or (chat_id) a room uuid, which stays a string.
const idFields = new Set(['chat_id', 'from_chat_id', 'user_id']);
const jsonFields = new Set([
  'reply_markup',
  'allowed_updates',
  'reply_parameters',
  'link_preview_options',
  'entities',
  'commands',
  'scope',
]);

/** A value that does not read as its field's type stays a string, and validation names the field. */
function typed(name: string, value: string): unknown {
  if (integerFields.has(name) || name === 'offset') {
    if (/^-?\d{1,15}$/.test(value)) return Number(value);
    return value;
  }
  if (idFields.has(name)) return /^-?\d{1,16}$/.test(value) && Number.isSafeInteger(Number(value)) ? Number(value) : value;
  if (booleanFields.has(name)) return value === 'true' ? true : value === 'false' ? false : value;
  if (jsonFields.has(name)) {
    try {
      return JSON.parse(value) as unknown;
    } catch {
      return value;
    }
  }
  return value;
}

// File parts read as text: setWebhook's certificate, a PEM file as Telegram takes it (the body limit bounds its size).
const textFileFields = new Set(['certificate']);

async function withTextFiles(form: FormData, files: Map<string, File> | undefined): Promise<Array<[string, unknown]>> {
  const entries: Array<[string, unknown]> = [];
  for (const [name, value] of form.entries()) {
    if (typeof value === 'string') entries.push([name, value]);
    else if (textFileFields.has(name)) entries.push([name, await value.text()]);
    else if (files) {
      files.set(name, value);
      entries.push([name, `${attachPrefix}${name}`]);
    } else entries.push([name, value]);
  }
  return entries;
}

/** The Bot API method a request names (/bot/<token>/<method>). */
const methodOf = (url: string): string => url.split('?')[0]!.split('/')[3] ?? '';

export function formObject(entries: Iterable<[string, unknown]>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [name, value] of entries) {
    if (typeof value !== 'string') throw botApiErrors.badRequest(`field ${name} is a file; only sendDocument and sendPhoto take files`);
    body[name] = typed(name, value);
  }
  return body;
}

/** multipartLimit: the largest multipart body, which may carry a file (the other bodies keep the listener's limit). */
export function addFormParsers(app: FastifyInstance, multipartLimit: number): void {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request: FastifyRequest, body: string | Buffer, done) => {
      try {
        done(null, formObject(new URLSearchParams(body.toString()).entries()));
      } catch (err) {
        done(err as Error, undefined);
      }
    },
  );
  app.addContentTypeParser(
    'multipart/form-data',
    { parseAs: 'buffer', bodyLimit: multipartLimit },
    async (request: FastifyRequest, body: string | Buffer) => {
      let form: FormData;
      try {
        form = await new Response(body, { headers: { 'content-type': String(request.headers['content-type']) } }).formData();
      } catch {
        throw botApiErrors.badRequest('the multipart/form-data body could not be read');
      }
      const files = fileMethods.has(methodOf(request.url)) ? new Map<string, File>() : undefined;
      if (files) request.botFiles = files;
      return formObject(await withTextFiles(form, files));
    },
  );
}
