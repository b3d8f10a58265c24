// Checks a webhook delivery as a receiver got it against the `webhooks` map of a listener's served /openapi.json:
// the body against that event's envelope schema, each declared header against its parameter's schema.
import Ajv2020Import from 'ajv/dist/2020.js';
import type * as Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsImport from 'ajv-formats';
import type { ReceivedRequest } from './webhook-receiver.js';

type AjvInstance = Ajv2020Module.default;
const Ajv2020 = ((Ajv2020Import as unknown as { default?: unknown }).default ?? Ajv2020Import) as unknown as new (
  opts: Record<string, unknown>,
) => AjvInstance;
const addFormats = ((addFormatsImport as unknown as { default?: unknown }).default ?? addFormatsImport) as unknown as (
  ajv: AjvInstance,
) => void;

interface HeaderParameter {
  name: string;
  in: string;
  required?: boolean;
  schema: Record<string, unknown>;
}

export interface DeliveryContract {
  /** The event names the document declares. */
  events: string[];
  /** The problems of one received delivery: empty when body and headers match the declared delivery. */
  problems(request: Pick<ReceivedRequest, 'headers' | 'body'>): string[];
}

/** Reads GET /openapi.json of a listener and compiles its declared webhook deliveries. */
export async function deliveryContract(listenerUrl: string): Promise<DeliveryContract> {
  const res = await fetch(new URL('/openapi.json', listenerUrl));
  if (res.status !== 200) throw new Error(`GET /openapi.json answered ${res.status}`);
  const doc = (await res.json()) as { webhooks?: Record<string, { post: { parameters: HeaderParameter[] } }> };
  const webhooks = doc.webhooks ?? {};
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && Math.abs(n) < 2 ** 31 });
  ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isInteger(n) });
  ajv.addSchema(doc, 'served');
  const pointer = (...parts: (string | number)[]) =>
    `served#/${parts.map((p) => String(p).replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;
  return {
    events: Object.keys(webhooks),
    problems(request) {
      const text = request.body.toString('utf8');
      const body = JSON.parse(text) as { event?: string; id?: string };
      const event = String(request.headers['x-svc-event']);
      const declared = webhooks[event];
      if (!declared) return [`the document declares no webhook ${event}`];
      const problems: string[] = [];
      const validateBody = ajv.getSchema(pointer('webhooks', event, 'post', 'requestBody', 'content', 'application/json', 'schema'))!;
      if (!validateBody(body)) problems.push(...(validateBody.errors ?? []).map((e) => `body${e.instancePath} ${e.message}`));
      declared.post.parameters.forEach((parameter, i) => {
        if (parameter.in !== 'header') return;
        const raw = request.headers[parameter.name.toLowerCase()];
        if (raw === undefined) {
          if (parameter.required) problems.push(`${parameter.name} is missing`);
          return;
        }
        const value = String(raw);
        const typed = parameter.schema.type === 'integer' && /^-?\d+$/.test(value) ? Number(value) : value;
        const validateHeader = ajv.getSchema(pointer('webhooks', event, 'post', 'parameters', i, 'schema'))!;
        if (!validateHeader(typed))
          problems.push(`${parameter.name} ${JSON.stringify(value)}: ${(validateHeader.errors ?? []).map((e) => e.message).join(', ')}`);
      });
      if (request.headers['x-svc-delivery'] !== body.id) problems.push('X-SVC-Delivery is not the envelope id');
      return problems;
    },
  };
}
