// OpenAPI 3.1 schemas are JSON Schema 2020-12 (unevaluatedProperties seals request bodies), which Fastify's
// default draft-07 Ajv does not understand; these compilers use Ajv 2020 instead.
import type { FastifySchemaCompiler } from 'fastify';
import Ajv2020Import from 'ajv/dist/2020.js';
import type * as Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsImport from 'ajv-formats';
import { addBoundedPattern, boundPatterns } from './bounded-pattern.js';
import { inStoredYears } from './calendar.js';
import { builtOnFirstUse, compilesOnFirstUse } from './schema-compilation.js';

type AjvInstance = Ajv2020Module.default;
const Ajv2020 = ((Ajv2020Import as unknown as { default?: unknown }).default ?? Ajv2020Import) as unknown as new (
  opts: Record<string, unknown>,
) => AjvInstance;
const addFormats = ((addFormatsImport as unknown as { default?: unknown }).default ?? addFormatsImport) as unknown as (
  ajv: AjvInstance,
) => void;

function makeAjv(coerceTypes: boolean | 'array'): AjvInstance {
  const ajv = new Ajv2020({ allErrors: true, strict: false, coerceTypes, useDefaults: true, removeAdditional: false });
  addFormats(ajv);
  // ajv-formats' uuid also accepts a "urn:uuid:" prefix, which PostgreSQL's uuid type refuses (a 500 in SQL):
  // only the plain 8-4-4-4-12 form is a uuid here.
  ajv.addFormat('uuid', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
  // ajv-formats' date and date-time, within the years the platform stores (calendar.ts): one rule on every interface.
  const rfcFormats = ajv.formats as Record<string, { validate: (s: string) => boolean; compare?: (a: string, b: string) => number }>;
  for (const format of ['date', 'date-time']) {
    const rfc = rfcFormats[format]!;
    ajv.addFormat(format, { ...rfc, type: 'string', validate: (s: string) => rfc.validate(s) && inStoredYears(s) });
  }
  ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31 });
  ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isInteger(n) });
  ajv.addFormat('double', { type: 'number', validate: () => true });
  ajv.addFormat('float', { type: 'number', validate: () => true });
  // Normalising keywords rewrite the value, so handlers (and SQL) see one form. Uuids are lowered in place while
  // validating, so uniqueItems already compares them in one case. Names are trimmed only once the whole request part
  // has been validated (see normalisedAfterValidation), so every assertion judges what the client sent: a name of
  // 101 characters with a leading space is over a maxLength of 100, as the document says.
  ajv.addKeyword({
    keyword: 'x-lowercase',
    type: 'string',
    schemaType: 'boolean',
    modifying: true,
    validate: rewriteNow((s) => s.toLowerCase()),
  });
  ajv.addKeyword({ keyword: 'x-trim', type: 'string', schemaType: 'boolean', validate: rewriteAfterValidation((s) => s.trim()) });
  addBoundedPattern(ajv);
  return ajv;
}

interface DataContext {
  parentData?: Record<string | number, unknown>;
  parentDataProperty?: string | number;
}

function rewriteNow(change: (s: string) => string) {
  return (on: boolean, data: string, _schema?: unknown, cxt?: DataContext): boolean => {
    if (on && cxt?.parentData !== undefined && cxt.parentDataProperty !== undefined) cxt.parentData[cxt.parentDataProperty] = change(data);
    return true;
  };
}

// Validation is synchronous, so the rewrites one validator call asks for can be gathered in one module-level list.
const pendingRewrites: Array<() => void> = [];

function rewriteAfterValidation(change: (s: string) => string) {
  return (on: boolean, data: string, _schema?: unknown, cxt?: DataContext): boolean => {
    const parent = cxt?.parentData;
    const property = cxt?.parentDataProperty;
    if (on && parent !== undefined && property !== undefined) pendingRewrites.push(() => (parent[property] = change(data)));
    return true;
  };
}

type Validator = ReturnType<FastifySchemaCompiler<unknown>>;

/** Runs the validator, then the rewrites its keywords asked for; `errors` stays the validator's, as Fastify reads it. */
function normalisedAfterValidation(validate: Validator): Validator {
  const run = (data: unknown) => {
    // One shared list and no allocation per call: this runs on every request with a body or parameters.
    const start = pendingRewrites.length;
    try {
      return validate(data);
    } finally {
      for (let i = start; i < pendingRewrites.length; i++) pendingRewrites[i]!();
      pendingRewrites.length = start;
    }
  };
  Object.defineProperty(run, 'errors', { get: () => (validate as { errors?: unknown }).errors });
  return run as Validator;
}

/** Marks every `format: uuid` schema to be lowered, so one uuid rule holds in paths, queries and bodies alike. */
function lowerUuids(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(lowerUuids);
  if (node === null || typeof node !== 'object') return node;
  const obj = Object.fromEntries(Object.entries(node as Record<string, unknown>).map(([k, v]) => [k, lowerUuids(v)]));
  if (obj.format === 'uuid') obj['x-lowercase'] = true;
  return obj;
}

/** Bodies are validated as sent (no coercion); path, query and headers are strings coerced to their types. */
export function ajv2020ValidatorCompiler(): FastifySchemaCompiler<unknown> {
  const bodyAjv = makeAjv(false);
  const paramAjv = makeAjv('array');
  return ({ schema, httpPart }) => {
    const compile = () => {
      const ajv = httpPart === 'body' ? bodyAjv : paramAjv;
      const copy = boundPatterns(lowerUuids(schema)) as Record<string, unknown>;
      delete copy.$id;
      return normalisedAfterValidation(ajv.compile(copy) as Validator);
    };
    return compilesOnFirstUse() ? builtOnFirstUse(compile) : compile();
  };
}
