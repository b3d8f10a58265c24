// reply_markup is refused with Telegram's kind of reason before the schema validates the body: a union of four kinds
// fails validation with a path per kind ("body.reply_markup.inline_keyboard is required"), which says nothing to
// the bot's author. Methods whose schema takes an inline keyboard only (the edits) refuse the other kinds by name.
import type { FastifyInstance } from 'fastify';
import { maxBodyDepth, nestsDeeperThan } from '../../../platform/json-depth.js';
import { botApiErrors } from './errors.js';
import { methodOf } from './parameters.js';
import { readReplyMarkup } from './reply-markup.js';

interface Document {
  paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: { $ref?: string } }> } }>>;
  components?: { schemas?: Record<string, { properties?: Record<string, { $ref?: string }> }> };
}

/** Methods that take reply_markup, each with whether only an inline keyboard is allowed. */
export function markupMethods(spec: Record<string, unknown>): Map<string, { inlineOnly: boolean }> {
  const doc = spec as unknown as Document;
  const methods = new Map<string, { inlineOnly: boolean }>();
  for (const [path, item] of Object.entries(doc.paths)) {
    const ref = item.post?.requestBody?.content?.['application/json']?.schema?.$ref;
    const body = ref === undefined ? undefined : doc.components?.schemas?.[ref.replace('#/components/schemas/', '')];
    const markup = body?.properties?.reply_markup;
    if (markup === undefined) continue;
    methods.set(path.slice(path.lastIndexOf('/') + 1), { inlineOnly: markup.$ref === '#/components/schemas/InlineKeyboardMarkup' });
  }
  return methods;
}

/** A reply_markup sent as JSON text inside a JSON body, as Telegram also takes it. */
function decoded(value: unknown): unknown {
  if (typeof value !== 'string' || !/^\s*\{/.test(value)) return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

export function addReplyMarkupCheck(app: FastifyInstance, methods: Map<string, { inlineOnly: boolean }>): void {
  app.addHook('preValidation', async (request) => {
    if (request.method !== 'POST') return;
    const method = methods.get(methodOf(request.url));
    const body = request.body as Record<string, unknown> | undefined;
    if (!method || typeof body !== 'object' || body === null || body.reply_markup === undefined) return;
    body.reply_markup = decoded(body.reply_markup);
    // A value nested past the body depth limit is the depth rule's to refuse (it names the limit), not a markup reason.
    if (nestsDeeperThan(body.reply_markup, maxBodyDepth)) return;
    const read = readReplyMarkup(body.reply_markup);
    if (typeof read === 'string') throw botApiErrors.badRequest(read);
    if (method.inlineOnly && !('inline' in read)) throw botApiErrors.badRequest('inline keyboard expected');
  });
}
