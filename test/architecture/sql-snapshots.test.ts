// Every query module's SQL, checked in beside it (docs/adr/0153-query-modules-and-sql-snapshots.md): each module's
// `examples` are run on a recorder, and the statements it received, formatted, must equal the module's .sql file.
// A stale file fails here; `make snapshots` (UPDATE_SQL_SNAPSHOTS=1) rewrites them.
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { format } from 'sql-formatter';
import type { Recorder } from '../../src/platform/db/query-examples.js';

const root = join(process.cwd(), 'src');
const update = process.env.UPDATE_SQL_SNAPSHOTS === '1';

/** A query module: queries.ts, or name-queries.ts where a feature keeps several. */
const queryModuleName = /(^|-)queries\.ts$/;

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? files(path) : [path];
  });
}

const all = files(root);
const modules = all.filter((f) => queryModuleName.test(f.split('/').pop()!)).sort();

/** Pretends to be a pool or a client: keeps the text of every statement and answers no rows. */
function recorder(sent: string[]): Recorder {
  const query = async (statement: string | { text: string }) => {
    sent.push(typeof statement === 'string' ? statement : statement.text);
    return { rows: [], rowCount: 0 };
  };
  return { query } as unknown as Recorder;
}

const isCompilable = (value: unknown): value is { compile(): { sql: string } } =>
  typeof value === 'object' && value !== null && typeof (value as { compile?: unknown }).compile === 'function';

/** The statements one example sends (or, for a fragment, the statement it compiles to). */
async function statementsOf(example: (db: Recorder) => unknown): Promise<string[]> {
  const sent: string[] = [];
  let result: unknown;
  try {
    result = example(recorder(sent));
    if (result instanceof Promise) await result;
  } catch {
    // The recorder answers no rows: a function that needs one stops after the statements it has sent.
  }
  if (isCompilable(result)) sent.push(result.compile().sql);
  return sent;
}

async function snapshotOf(file: string): Promise<string> {
  const module = (await import(file)) as Record<string, unknown> & { examples?: Record<string, (db: Recorder) => unknown> };
  const path = relative(process.cwd(), file);
  if (!module.examples) throw new Error(`${path} exports no examples`);
  const exported = Object.keys(module).filter((name) => name !== 'examples' && typeof module[name] === 'function');
  const missing = exported.filter((name) => !(name in module.examples!));
  if (missing.length > 0) throw new Error(`${path}: no example for ${missing.join(', ')}`);
  const parts = [`-- The SQL of ${path}, one section per exported function (make snapshots writes this file).\n`];
  for (const name of Object.keys(module.examples).sort()) {
    const statements = await statementsOf(module.examples[name]!);
    if (statements.length === 0) throw new Error(`${path}: the example of ${name} sends no statement`);
    parts.push(`-- ${name}\n${statements.map((s) => `${format(s, { language: 'postgresql', keywordCase: 'preserve' })};`).join('\n\n')}\n`);
  }
  return parts.join('\n');
}

test('there are query modules to snapshot', () => {
  expect(modules.length).toBeGreaterThan(0);
});

/** The snapshot file as it is (after rewriting it when asked to), beside the one the module produces now. */
async function compare(file: string): Promise<{ stored: string; current: string }> {
  const snapshot = file.replace(/\.ts$/, '.sql');
  const current = await snapshotOf(file);
  if (update) writeFileSync(snapshot, current);
  return { stored: existsSync(snapshot) ? readFileSync(snapshot, 'utf8') : '(no snapshot: run make snapshots)', current };
}

test.each(modules.map((file) => [relative(process.cwd(), file), file]))('%s matches its SQL snapshot', async (_name, file) => {
  const { stored, current } = await compare(file);
  expect(stored).toBe(current);
});

/** .sql files of src/ with no query module of the same name beside them. */
const orphans = () => all.filter((f) => f.endsWith('.sql') && !modules.includes(f.replace(/\.sql$/, '.ts')));

test('every SQL snapshot belongs to a query module', () => {
  expect(orphans().map((f) => relative(process.cwd(), f))).toEqual([]);
});
