import { mentionCandidates, MAX_MENTIONS } from './parse.js';

const id = '0190f3a2-7b1c-7d2e-8f00-123456789abc';

test('no @ finds nothing', () => {
  expect(mentionCandidates('hello world <not a mention>')).toEqual([]);
});

test('@username, the id form and @all / @here, with UTF-16 offsets and lengths', () => {
  const text = `😀 hi @Ann.Lee and <@${id.toUpperCase()}>, @ALL @here`;
  const found = mentionCandidates(text);
  expect(found).toEqual([
    { o: 6, l: 8, k: 'user', n: 'ann.lee', a: null },
    { o: 19, l: 39, k: 'user', n: null, a: id },
    { o: 60, l: 4, k: 'all', n: null, a: null },
    { o: 65, l: 5, k: 'here', n: null, a: null },
  ]);
  // Each offset and length cut out the mention as written: the id form with its <@ and >, the others from the @.
  expect(found.map((c) => text.slice(c.o, c.o + c.l))).toEqual(['@Ann.Lee', `<@${id.toUpperCase()}>`, '@ALL', '@here']);
});

test('mail addresses, lone @, one-character and over-long names are no mentions; a trailing full stop is dropped', () => {
  expect(mentionCandidates('mail ann@example.com or @ or @x')).toEqual([]);
  expect(mentionCandidates(`@${'a'.repeat(33)}`)).toEqual([]);
  expect(mentionCandidates('ask @ann.')).toEqual([{ o: 4, l: 4, k: 'user', n: 'ann', a: null }]);
  // an id form that holds no account id is read as the name after its @
  expect(mentionCandidates('<@not-an-id>')).toEqual([{ o: 1, l: 10, k: 'user', n: 'not-an-id', a: null }]);
});

test(`at most ${MAX_MENTIONS} mentions are read from one text`, () => {
  expect(mentionCandidates(Array.from({ length: MAX_MENTIONS + 5 }, (_, i) => `@user${i}`).join(' '))).toHaveLength(MAX_MENTIONS);
});
