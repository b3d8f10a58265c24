// The registry against the generated OpenAPI document: the same fields in the same order, the same required fields
// and defaults, the same operations and scopes, so neither can change without the other.
import { loadSpecification } from '../../platform/http/specification.js';
import { createdNow, crmResources, required, type ResourceDef } from '../../core/crm/resources.js';
import { orDefault } from '../../../test/helpers/data.js';

interface Schema {
  type?: string;
  $ref?: string;
  anyOf?: Schema[];
  enum?: string[];
  default?: unknown;
  required?: string[];
  properties?: Record<string, Schema>;
}

interface Operation {
  operationId: string;
  description?: string;
  'x-required-scope'?: string;
  parameters?: Array<{ name?: string; $ref?: string }>;
}

let schemas: Record<string, Schema>;
let paths: Record<string, Record<string, Operation>>;

beforeAll(async () => {
  const spec = (await loadSpecification('partner')) as { components: { schemas: Record<string, Schema> }; paths: typeof paths };
  schemas = spec.components.schemas;
  paths = spec.paths;
});

const meta = ['object', 'id', 'created_at', 'updated_at'];
const schemaName = (def: ResourceDef, suffix = '') => `Crm.${def.object.slice(4, 5).toUpperCase()}${def.object.slice(5)}${suffix}`;
const nullable = (s: Schema) => (s.anyOf ?? []).some((a) => a.type === 'null');
const isInstant = (s: Schema) => s.$ref === '#/components/schemas/Platform.instant' || (s.anyOf ?? []).some(isInstant);

/** The field the schema names `status`, null when it has none. */
const statusFieldOf = (props: Record<string, Schema>) => ('status' in props ? 'status' : null);
/** The required list of a schema, [] when it lists none. */
const requiredOf = (schema: Schema) => schema.required ?? [];
/** The scope an operation requires, null when the operation does not exist or names none. */
const scopeOf = (op: Operation | undefined) => op?.['x-required-scope'] ?? null;
/** The scope the create (POST) and update (PATCH) operations should require: the write scope where they exist. */
const createScopeOf = (def: ResourceDef) => (def.writable === 'read_only' ? null : def.writeScope);
const updateScopeOf = (def: ResourceDef) => (def.writable === 'create_update' ? def.writeScope : null);

/** The fields a create body may leave out, split into those that default to null and those with a value default. */
function createDefaults(def: ResourceDef): { nulls: string[]; values: Array<[string, unknown]> } {
  const defaulted = Object.entries(def.fields).filter(([, fallback]) => fallback !== required && fallback !== createdNow);
  return {
    nulls: defaulted.filter(([, fallback]) => fallback === null).map(([name]) => name),
    values: defaulted.filter(([, fallback]) => fallback !== null),
  };
}

const byId = (defs: readonly ResourceDef[]) => defs.map((def) => [def.id, def] as const);
const withStatus = crmResources.filter((def) => def.statusField !== null);
const readOnly = crmResources.filter((def) => def.writable === 'read_only');
const writable = crmResources.filter((def) => def.writable !== 'read_only');
const updatable = crmResources.filter((def) => def.writable === 'create_update');
const notUpdatable = crmResources.filter((def) => def.writable !== 'create_update');

describe.each(byId(crmResources))('%s', (_id, def) => {
  test('record fields equal the schema properties, in order, with the object value', () => {
    const record = schemas[schemaName(def)]!;
    expect(record).toBeDefined();
    const props = Object.keys(record.properties!);
    expect(props.slice(0, 4)).toEqual(meta);
    expect(props.slice(4)).toEqual(Object.keys(def.fields));
    expect(record.required!.slice().sort()).toEqual(props.slice().sort());
    expect(record.properties!.object!.enum).toEqual([def.object]);
  });

  test('nullable fields default to null, the others are required or have a non-null default', () => {
    const props = schemas[schemaName(def)]!.properties!;
    const fields = Object.entries(def.fields);
    expect(fields.map(([name, fallback]) => ({ name, defaultsToNull: fallback === null }))).toEqual(
      fields.map(([name]) => ({ name, defaultsToNull: nullable(props[name]!) })),
    );
  });

  test('instant fields and the status field match the schema', () => {
    const props = schemas[schemaName(def)]!.properties!;
    expect([...def.instantFields].sort()).toEqual(
      Object.keys(def.fields)
        .filter((n) => isInstant(props[n]!))
        .sort(),
    );
    expect(def.statusField).toBe(statusFieldOf(props));
  });

  test('operations, scopes, status filter and not-found code match the paths', () => {
    const list = paths[`/api/v1/partner/crm/${def.id}`]!;
    const one = paths[`/api/v1/partner/crm/${def.id}/{id}`]!;
    expect(list.get!['x-required-scope']).toBe(def.readScope);
    expect(one.get!['x-required-scope']).toBe(def.readScope);
    expect(one.get!.description).toContain(`404 ${def.notFound}`);
    expect(scopeOf(list.post)).toBe(createScopeOf(def));
    expect(scopeOf(one.patch)).toBe(updateScopeOf(def));
    expect(def.writeScope === null).toBe(def.writable === 'read_only');
    const hasStatusParam = orDefault(list.get!.parameters, []).some((p) => p.name === 'status');
    expect(hasStatusParam).toBe(def.statusField !== null);
  });
});

describe.each(byId(withStatus))('%s, with a status field', (_id, def) => {
  test('the status default is a value of the status enum', () => {
    const props = schemas[schemaName(def)]!.properties!;
    const statusEnum = schemas[props.status!.$ref!.split('/').pop()!]!.enum!;
    expect(statusEnum).toContain(def.fields.status);
  });
});

describe.each(byId(readOnly))('%s, read-only', (_id, def) => {
  test('has no create body', () => {
    expect(schemas[schemaName(def, 'Create')]).toBeUndefined();
  });
});

describe.each(byId(writable))('%s, writable', (_id, def) => {
  test('create body: same fields, required ones without default, spec defaults equal the registry', () => {
    const create = schemas[schemaName(def, 'Create')]!;
    expect(Object.keys(create.properties!)).toEqual(Object.keys(def.fields));
    expect(requiredOf(create).slice().sort()).toEqual(
      Object.keys(def.fields)
        .filter((n) => def.fields[n] === required)
        .sort(),
    );
    const { nulls, values } = createDefaults(def);
    expect(nulls.map((name) => ({ name, nullable: nullable(create.properties![name]!) }))).toEqual(
      nulls.map((name) => ({ name, nullable: true })),
    );
    expect(values.map(([name]) => ({ name, default: create.properties![name]!.default }))).toEqual(
      values.map(([name, fallback]) => ({ name, default: fallback })),
    );
  });
});

describe.each(byId(updatable))('%s, create_update', (_id, def) => {
  test('update body exists with the same fields, none required', () => {
    const update = schemas[schemaName(def, 'Update')]!;
    expect(Object.keys(update.properties!)).toEqual(Object.keys(def.fields));
    expect(requiredOf(update)).toEqual([]);
  });
});

describe.each(byId(notUpdatable))('%s, not create_update', (_id, def) => {
  test('has no update body', () => {
    expect(schemas[schemaName(def, 'Update')]).toBeUndefined();
  });
});

test('the registry covers every CRM record path of the spec and nothing else', () => {
  const segments = new Set(
    Object.keys(paths)
      .map((p) => /^\/api\/v1\/partner\/crm\/([a-z]+)$/.exec(p)?.[1])
      .filter((s): s is string => s !== undefined),
  );
  expect([...segments].sort()).toEqual(crmResources.map((d) => d.id).sort());
});
