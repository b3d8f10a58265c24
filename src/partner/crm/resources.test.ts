// The registry against the generated OpenAPI document: the same fields in the same order, the same required fields
// and defaults, the same operations and scopes, so neither can change without the other.
import { loadSpecification } from '../../platform/http/specification.js';
import { createdNow, crmResources, required, type ResourceDef } from '../../core/crm/resources.js';

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

describe.each(crmResources.map((def) => [def.id, def] as const))('%s', (_id, def) => {
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
    for (const [name, fallback] of Object.entries(def.fields)) {
      if (nullable(props[name]!)) expect({ name, fallback }).toEqual({ name, fallback: null });
      else expect({ name, hasDefault: fallback !== null }).toEqual({ name, hasDefault: true });
    }
  });

  test('instant fields and the status field match the schema', () => {
    const props = schemas[schemaName(def)]!.properties!;
    expect([...def.instantFields].sort()).toEqual(
      Object.keys(def.fields)
        .filter((n) => isInstant(props[n]!))
        .sort(),
    );
    expect(def.statusField).toBe('status' in props ? 'status' : null);
    if (def.statusField) {
      const statusEnum = schemas[props.status!.$ref!.split('/').pop()!]!.enum!;
      expect(statusEnum).toContain(def.fields.status);
    }
  });

  test('create body: same fields, required ones without default, spec defaults equal the registry', () => {
    const create = schemas[schemaName(def, 'Create')];
    if (def.writable === 'read_only') {
      expect(create).toBeUndefined();
      return;
    }
    expect(Object.keys(create!.properties!)).toEqual(Object.keys(def.fields));
    expect((create!.required ?? []).slice().sort()).toEqual(
      Object.keys(def.fields)
        .filter((n) => def.fields[n] === required)
        .sort(),
    );
    for (const [name, fallback] of Object.entries(def.fields)) {
      const prop = create!.properties![name]!;
      if (fallback === required || fallback === createdNow) continue;
      if (fallback === null) expect({ name, nullable: nullable(prop) }).toEqual({ name, nullable: true });
      else expect({ name, default: prop.default }).toEqual({ name, default: fallback });
    }
  });

  test('update body exists exactly for create_update resources, with the same fields', () => {
    const update = schemas[schemaName(def, 'Update')];
    if (def.writable !== 'create_update') return expect(update).toBeUndefined();
    expect(Object.keys(update!.properties!)).toEqual(Object.keys(def.fields));
    expect(update!.required ?? []).toEqual([]);
  });

  test('operations, scopes, status filter and not-found code match the paths', () => {
    const list = paths[`/api/v1/partner/crm/${def.id}`]!;
    const one = paths[`/api/v1/partner/crm/${def.id}/{id}`]!;
    expect(list.get!['x-required-scope']).toBe(def.readScope);
    expect(one.get!['x-required-scope']).toBe(def.readScope);
    expect(one.get!.description).toContain(`404 ${def.notFound}`);
    expect(list.post?.['x-required-scope'] ?? null).toBe(def.writable === 'read_only' ? null : def.writeScope);
    expect(one.patch?.['x-required-scope'] ?? null).toBe(def.writable === 'create_update' ? def.writeScope : null);
    expect(def.writeScope === null).toBe(def.writable === 'read_only');
    const hasStatusParam = (list.get!.parameters ?? []).some((p) => p.name === 'status');
    expect(hasStatusParam).toBe(def.statusField !== null);
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
