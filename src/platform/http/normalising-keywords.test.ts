// x-trim rewrites a value only after the whole request part is validated, so every assertion judges what the client
// sent (the document's maxLength counts the surrounding whitespace); x-lowercase lowers uuids while validating, so
// uniqueItems compares them in one case. The handler sees the rewritten forms.
import { ajv2020ValidatorCompiler } from './ajv.js';

function validator(schema: Record<string, unknown>) {
  const validate = ajv2020ValidatorCompiler()({ schema, method: 'POST', url: '/', httpPart: 'body' }) as unknown as ((
    data: unknown,
  ) => boolean) & {
    errors?: Array<{ keyword: string; instancePath: string }> | null;
  };
  return (data: unknown) => (validate(data) ? [] : (validate.errors ?? []).map(({ keyword, instancePath }) => ({ keyword, instancePath })));
}

const name = { type: 'string', 'x-trim': true };

test('maxLength beside a referenced trimmed name counts the whitespace that was sent', () => {
  const check = validator({ type: 'object', properties: { name: { maxLength: 5, allOf: [name] } } });
  expect(check({ name: '\u00a0abcde' })).toEqual([{ keyword: 'maxLength', instancePath: '/name' }]);
  const body = { name: '\u00a0abcd ' };
  expect(check(body)).toEqual([{ keyword: 'maxLength', instancePath: '/name' }]);
  const fits = { name: ' abc ' };
  expect(check(fits)).toEqual([]);
  expect(fits.name).toBe('abc');
});

test('uuids differing only in case are one item for uniqueItems', () => {
  const check = validator({ type: 'array', uniqueItems: true, items: { type: 'string', format: 'uuid' } });
  expect(check(['aaaaaaaa-0000-4000-8000-00000000000a', 'AAAAAAAA-0000-4000-8000-00000000000A'])).toEqual([
    { keyword: 'uniqueItems', instancePath: '' },
  ]);
});

test('a valid body is trimmed and lowered, also deep in arrays; the errors of an earlier call do not linger', () => {
  const check = validator({
    type: 'object',
    properties: { items: { type: 'array', items: { type: 'object', properties: { name, id: { type: 'string', format: 'uuid' } } } } },
  });
  const body = { items: [{ name: '  a  ', id: 'AAAAAAAA-0000-4000-8000-00000000000A' }, { name: '\tb' }] };
  expect(check(body)).toEqual([]);
  expect(body).toEqual({ items: [{ name: 'a', id: 'aaaaaaaa-0000-4000-8000-00000000000a' }, { name: 'b' }] });
  expect(check({ items: 'no' })).toEqual([{ keyword: 'type', instancePath: '/items' }]);
  expect(check({ items: [] })).toEqual([]);
});
