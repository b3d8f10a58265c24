// Telegram's parameter rules, driven by each method's body schema in the Bot API document. A method's parameters may
// come as JSON, as an urlencoded or multipart form, or in the query string; in forms and query strings every value
// is a string: numbers and booleans as text, arrays and objects JSON-encoded. In a form or query, `null` or the
// empty string for an optional parameter means "not given", as typed clients send every optional parameter they do
// not set (a JSON body says so by leaving the parameter out, as the document's schemas declare). Unknown parameters
// are left for the schema, which ignores them. A value that does not read as its type stays as it came, and
// validation refuses it naming the parameter.
import type { FastifyInstance } from 'fastify';

/** The JSON types a parameter's schema admits. */
type Admits = Set<'integer' | 'number' | 'boolean' | 'string' | 'object' | 'array' | 'null'>;

export interface MethodParameters {
  admits: Map<string, Admits>;
  required: Set<string>;
}

interface Schema {
  $ref?: string;
  type?: string | string[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, Schema>;
  required?: string[];
}

interface Document {
  paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: Schema }> } }>>;
  components?: { schemas?: Record<string, Schema> };
}

const everything: Admits = new Set(['integer', 'number', 'boolean', 'string', 'object', 'array', 'null']);

function jsonType(value: unknown): 'integer' | 'number' | 'boolean' | 'string' | 'object' | 'array' | 'null' {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value as 'boolean' | 'string' | 'object';
}

function resolve(doc: Document, schema: Schema): Schema {
  const name = schema.$ref?.replace('#/components/schemas/', '');
  return name === undefined ? schema : resolve(doc, doc.components?.schemas?.[name] ?? {});
}

function admitted(doc: Document, raw: Schema, depth = 0): Admits {
  if (depth > 20) return everything;
  const schema = resolve(doc, raw);
  const out: Admits = new Set();
  for (const t of schema.type === undefined ? [] : [schema.type].flat()) out.add(t as never);
  for (const value of [...(schema.enum ?? []), ...('const' in schema ? [schema.const] : [])]) out.add(jsonType(value));
  for (const part of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])])
    for (const t of admitted(doc, part, depth + 1)) out.add(t);
  // No type named anywhere: any value.
  return out.size === 0 ? everything : out;
}

/** The body parameters of every method (the last segment of its POST path), from the Bot API document. */
export function methodParameters(spec: Record<string, unknown>): Map<string, MethodParameters> {
  const doc = spec as unknown as Document;
  const methods = new Map<string, MethodParameters>();
  for (const [path, item] of Object.entries(doc.paths)) {
    const bodySchema = item.post?.requestBody?.content?.['application/json']?.schema;
    if (!bodySchema) continue;
    const body = resolve(doc, bodySchema);
    const admits = new Map<string, Admits>();
    for (const [name, property] of Object.entries(body.properties ?? {})) admits.set(name, admitted(doc, property));
    methods.set(path.slice(path.lastIndexOf('/') + 1), { admits, required: new Set(body.required ?? []) });
  }
  return methods;
}

/** Omitted: the parameter was sent as "not given". */
export const omitted = Symbol('omitted');

const integerText = /^-?\d{1,16}$/;
const numberText = /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/;

/** A form or query value as its parameter's type reads it. */
export function fromText(method: MethodParameters | undefined, name: string, value: string): unknown {
  const admits = method?.admits.get(name);
  if (!method || !admits) return value;
  if ((value === '' || value === 'null') && !method.required.has(name)) return omitted;
  if (admits.has('integer') && integerText.test(value) && Number.isSafeInteger(Number(value))) return Number(value);
  if (admits.has('number') && numberText.test(value) && Number.isFinite(Number(value))) return Number(value);
  if (admits.has('boolean') && (value === 'true' || value === 'false')) return value === 'true';
  const structured = admits.has('object') || admits.has('array');
  if (structured && (!admits.has('string') || /^\s*[[{]/.test(value))) {
    try {
      return JSON.parse(value) as unknown;
    } catch {
      return value;
    }
  }
  return value;
}

/** The Bot API method a request names (/bot/<token>/<method>). */
export const methodOf = (url: string): string => url.split('?')[0]!.split('/')[3] ?? '';

/**
 * Before validation: the query string's parameters of a POST join its body (where the body does not name them
 * too). A POST without a body is a call without parameters.
 */
export function addParameterRules(app: FastifyInstance, parameters: Map<string, MethodParameters>): void {
  app.addHook('preValidation', async (request) => {
    if (request.method !== 'POST') return;
    const method = parameters.get(methodOf(request.url));
    if (!method) return;
    // No body at all is a call without parameters; a body that is JSON null or not an object is refused by validation.
    const body = request.body === undefined ? {} : request.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return;
    // Fastify picks the body's schema by Content-Type: a call that sent none is validated as JSON.
    if (request.headers['content-type'] === undefined) request.headers['content-type'] = 'application/json';
    const params = body as Record<string, unknown>;
    for (const [name, value] of Object.entries((request.query ?? {}) as Record<string, unknown>)) {
      if (name in params || typeof value !== 'string') continue;
      const read = fromText(method, name, value);
      if (read !== omitted) params[name] = read;
    }
    request.body = params;
  });
}
