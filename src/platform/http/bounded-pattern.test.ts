// The request validator: a pattern under a maxLength is not applied to a value over that length (allErrors would
// otherwise run it on any size), and within the length it reports exactly as Ajv's own pattern keyword.
import { ajv2020ValidatorCompiler } from './ajv.js';
import { boundPatterns, boundedPatternKeyword } from './bounded-pattern.js';
import { nestsDeeperThan } from '../json-depth.js';
import { illFormedPath } from '../unicode.js';

interface Failure {
  keyword: string;
  instancePath: string;
  message?: string;
}

function validator(schema: Record<string, unknown>) {
  const compile = ajv2020ValidatorCompiler();
  const validate = compile({ schema, method: 'POST', url: '/', httpPart: 'body' }) as unknown as ((data: unknown) => boolean) & {
    errors?: Failure[] | null;
  };
  return (data: unknown): Failure[] =>
    validate(data) ? [] : (validate.errors ?? []).map(({ keyword, instancePath, message }) => ({ keyword, instancePath, message }));
}

const nonBlank = '^[ \\t]*[^\\u0000 \\t][^\\u0000]*$';

test('a value over maxLength gets the maxLength error only; within it the pattern reports as Ajv words it', () => {
  const check = validator({ type: 'object', properties: { name: { type: 'string', maxLength: 5, pattern: nonBlank } } });
  expect(check({ name: `${'a'.repeat(100)}\u0000` })).toEqual([
    { keyword: 'maxLength', instancePath: '/name', message: 'must NOT have more than 5 characters' },
  ]);
  expect(check({ name: 'ab\u0000' })).toEqual([{ keyword: 'pattern', instancePath: '/name', message: `must match pattern "${nonBlank}"` }]);
  expect(check({ name: '  ab ' })).toEqual([]);
});

test('maxLength counts code points: five emoji are within a limit of five', () => {
  const check = validator({ type: 'string', maxLength: 5, pattern: '^[^a]*$' });
  expect(check('😀😀😀😀😀')).toEqual([]);
  expect(check('😀😀😀😀a')).toEqual([{ keyword: 'pattern', instancePath: '', message: 'must match pattern "^[^a]*$"' }]);
});

test('a maxLength beside a referenced pattern (allOf) bounds it too; a pattern with no maxLength over it stays a pattern', () => {
  const schema = boundPatterns({
    maxLength: 3,
    allOf: [{ type: 'string', pattern: 'x' }],
    properties: { p: { type: 'string', pattern: 'y' } },
  }) as any;
  expect(schema.allOf[0]).toEqual({ type: 'string', [boundedPatternKeyword]: { pattern: 'x', maxLength: 3 } });
  expect(schema.properties.p).toEqual({ type: 'string', pattern: 'y' });
  const check = validator({ type: 'string', maxLength: 3, allOf: [{ type: 'string', pattern: '^b+$' }] });
  expect(check('aaaaaa').map((f) => f.keyword)).toEqual(['maxLength']);
  expect(check('aa').map((f) => f.keyword)).toEqual(['pattern']);
});

test('the depth and surrogate walks take any depth without overflowing the stack', () => {
  const deep = JSON.parse(`${'['.repeat(100_000)}"\\ud800"${']'.repeat(100_000)}`);
  expect(nestsDeeperThan(deep, 32)).toBe(true);
  expect(nestsDeeperThan([[[]]], 3)).toBe(false);
  expect(nestsDeeperThan([[[[]]]], 3)).toBe(true);
  expect(illFormedPath(deep)?.length).toBe(100_000);
  expect(illFormedPath({ a: [1, 'ok', { b: 'x\udc00' }], c: 'y' })).toEqual(['a', '2', 'b']);
  expect(illFormedPath({ ['k\ud800']: 1 })).toEqual(['k\ufffd']);
  expect(illFormedPath({ a: ['fine'] })).toBeNull();
});
