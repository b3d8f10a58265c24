// Checks realtime events as a client got them against the `webhooks` map of the chat listener's served
// /openapi.json, where each topic declares its event body (spec/chat/events.tsp).
import Ajv2020Import from 'ajv/dist/2020.js';
import type * as Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsImport from 'ajv-formats';

type AjvInstance = Ajv2020Module.default;
const Ajv2020 = ((Ajv2020Import as unknown as { default?: unknown }).default ?? Ajv2020Import) as unknown as new (
  opts: Record<string, unknown>,
) => AjvInstance;
const addFormats = ((addFormatsImport as unknown as { default?: unknown }).default ?? addFormatsImport) as unknown as (
  ajv: AjvInstance,
) => void;

export interface RealtimeContract {
  /** The topics the document declares. */
  topics: string[];
  /** The problems of one event: empty when its topic is declared and its body matches the declaration. */
  problems(event: { topic: string }): string[];
}

export async function realtimeContract(chatUrl: string): Promise<RealtimeContract> {
  const res = await fetch(new URL('/openapi.json', chatUrl));
  if (res.status !== 200) throw new Error(`GET /openapi.json answered ${res.status}`);
  const doc = (await res.json()) as { webhooks?: Record<string, unknown> };
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && Math.abs(n) < 2 ** 31 });
  ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isInteger(n) });
  ajv.addSchema(doc, 'served');
  const topics = Object.keys(doc.webhooks ?? {});
  return {
    topics,
    problems(event) {
      if (!topics.includes(event.topic)) return [`the document declares no event ${event.topic}`];
      const pointer = `served#/webhooks/${event.topic.replace(/~/g, '~0').replace(/\//g, '~1')}/post/requestBody/content/application~1json/schema`;
      const validate = ajv.getSchema(pointer)!;
      return validate(event) ? [] : (validate.errors ?? []).map((e) => `${event.topic}${e.instancePath} ${e.message}`);
    },
  };
}
