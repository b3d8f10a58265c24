// Form bodies, as Telegram reads them: application/x-www-form-urlencoded and multipart/form-data, every value a
// string, objects and arrays JSON-encoded (libraries send reply_markup so). Values are turned into the JSON shapes
// the methods' schemas describe (parameters.ts), then validated like a JSON body. File parts are taken by the
// file methods only (fileMethods): each is kept aside on the request and its field reads "attach://<field>", as
// Telegram's own references to file parts do. setWebhook's certificate is read as text.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { botApiErrors } from './errors.js';
import { fromText, methodOf, omitted, type MethodParameters } from './parameters.js';

/** Methods whose multipart bodies may carry files. */
const fileMethods = new Set([
  'sendDocument',
  'sendPhoto',
  'sendVideo',
  'sendAnimation',
  'sendAudio',
  'sendVoice',
  'sendVideoNote',
  'sendMediaGroup',
]);
export const attachPrefix = 'attach://';

declare module 'fastify' {
  interface FastifyRequest {
    botFiles?: Map<string, File>;
  }
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

export function formObject(method: MethodParameters | undefined, entries: Iterable<[string, unknown]>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [name, value] of entries) {
    if (typeof value !== 'string') throw botApiErrors.badRequest(`field ${name} is a file; only the send methods of files take files`);
    const read = fromText(method, name, value);
    if (read !== omitted) body[name] = read;
  }
  return body;
}

/** multipartLimit: the largest multipart body, which may carry a file (the other bodies keep the listener's limit). */
export function addFormParsers(app: FastifyInstance, multipartLimit: number, parameters: Map<string, MethodParameters>): void {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (request: FastifyRequest, body: string | Buffer, done) => {
      try {
        done(null, formObject(parameters.get(methodOf(request.url)), new URLSearchParams(body.toString()).entries()));
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
      return formObject(parameters.get(methodOf(request.url)), await withTextFiles(form, files));
    },
  );
}
