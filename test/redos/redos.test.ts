// Every regular expression applied to request input must run in linear time: one backtracking pattern on a long
// string freezes the whole process (every listener shares its event loop). The `recheck` checker analyses each
// `pattern` of the four generated documents, each format expression Ajv applies to a `format` they use, and each
// regular expression literal of src/ outside tests; the test fails on any it does not find safe.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { check } from 'recheck';
import { fullFormats } from 'ajv-formats/dist/formats.js';

interface Expression {
  where: string;
  source: string;
  flags: string;
}

const documents = ['chat', 'bot', 'partner', 'workspace'];

function documentExpressions(): Expression[] {
  const found: Expression[] = [];
  const formats = new Set<string>();
  for (const name of documents) {
    const doc: unknown = JSON.parse(readFileSync(`generated/openapi/${name}.json`, 'utf8'));
    // Iterative: the documents are data like any other.
    const stack: unknown[] = [doc];
    while (stack.length > 0) {
      const node = stack.pop();
      if (node === null || typeof node !== 'object') continue;
      const obj = node as Record<string, unknown>;
      // Ajv compiles `pattern` with the u flag.
      if (typeof obj.pattern === 'string') found.push({ where: `${name}.json pattern`, source: obj.pattern, flags: 'u' });
      if (typeof obj.format === 'string') formats.add(obj.format);
      if (obj.patternProperties && typeof obj.patternProperties === 'object') {
        for (const key of Object.keys(obj.patternProperties))
          found.push({ where: `${name}.json patternProperties`, source: key, flags: 'u' });
      }
      stack.push(...Object.values(obj));
    }
  }
  for (const format of formats) {
    const definition = (fullFormats as Record<string, unknown>)[format];
    const re = definition instanceof RegExp ? definition : (definition as { validate?: unknown } | undefined)?.validate;
    if (re instanceof RegExp) found.push({ where: `format ${format} (ajv-formats)`, source: re.source, flags: re.flags });
  }
  return found;
}

function sourceFiles(dir: string): string[] {
  const files: string[] = [];
  const pending = [dir];
  while (pending.length > 0) {
    const current = pending.pop()!;
    for (const name of readdirSync(current)) {
      const path = join(current, name);
      if (statSync(path).isDirectory()) pending.push(path);
      else if (path.endsWith('.ts') && !path.endsWith('.test.ts')) files.push(path);
    }
  }
  return files.sort();
}

/** Regular expression literals, and RegExp constructions from string literals, of every source file. */
function codeExpressions(): { found: Expression[]; dynamic: string[] } {
  const found: Expression[] = [];
  const dynamic: string[] = [];
  for (const file of sourceFiles('src')) {
    const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const pending: ts.Node[] = [sf];
    while (pending.length > 0) {
      const node = pending.pop()!;
      const where = `${file}:${sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1}`;
      if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
        const text = node.getText(sf);
        const end = text.lastIndexOf('/');
        found.push({ where, source: text.slice(1, end), flags: text.slice(end + 1) });
      } else if ((ts.isNewExpression(node) || ts.isCallExpression(node)) && node.expression.getText(sf) === 'RegExp') {
        const [pattern, flags] = node.arguments ?? [];
        if (pattern && ts.isStringLiteralLike(pattern)) {
          found.push({ where, source: pattern.text, flags: flags && ts.isStringLiteralLike(flags) ? flags.text : '' });
        } else dynamic.push(where);
      }
      pending.push(...node.getChildren(sf));
    }
  }
  return { found, dynamic };
}

// Expressions built at run time from something other than a literal, each with where its source is checked.
const dynamicSources: Record<string, string> = {
  // The documents' `pattern`s, bounded by their maxLength: checked above as document expressions.
  'src/platform/http/bounded-pattern.ts': 'document patterns',
};

test('the documents list patterns and the sources hold expressions to check', () => {
  expect(documentExpressions().length).toBeGreaterThan(20);
  expect(codeExpressions().found.length).toBeGreaterThan(20);
});

test('the checker finds the former name pattern vulnerable, and its replacement safe', async () => {
  const blanks = '\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff';
  expect((await check(`^[^\\u0000]*[^\\u0000${blanks}][^\\u0000]*$`, 'u')).status).toBe('vulnerable');
  expect((await check(`^[${blanks}]*[^\\u0000${blanks}][^\\u0000]*$`, 'u')).status).toBe('safe');
});

test('every regular expression built at run time takes its source from checked expressions', () => {
  const unexplained = codeExpressions().dynamic.filter((where) => !(where.split(':')[0]! in dynamicSources));
  expect(unexplained).toEqual([]);
});

/** The expressions with one entry per source and flags (the first place each is found). */
function uniqueExpressions(all: Expression[]): Expression[] {
  const unique = new Map<string, Expression>();
  for (const e of all) if (!unique.has(`${e.flags}/${e.source}`)) unique.set(`${e.flags}/${e.source}`, e);
  return [...unique.values()];
}

/** The checker's verdict on the expression as a line when it is not safe, none when it is. */
async function unsafeVerdict(e: Expression): Promise<string[]> {
  let result = await check(e.source, e.flags, { timeout: 10_000 });
  // "unknown" means the checker ran out of time, which a busy machine causes: one longer try before it counts.
  if (result.status === 'unknown') result = await check(e.source, e.flags, { timeout: 60_000 });
  if (result.status === 'safe') return [];
  const complexity = result.status === 'vulnerable' ? ` (${result.complexity.type})` : '';
  return [`${e.where}: /${e.source}/${e.flags} is ${result.status}${complexity}`];
}

test('no regular expression applied to input is vulnerable to ReDoS', async () => {
  const unique = uniqueExpressions([...documentExpressions(), ...codeExpressions().found]);
  const verdicts: string[] = [];
  for (const e of unique) verdicts.push(...(await unsafeVerdict(e)));
  expect(verdicts).toEqual([]);
}, 600_000);
