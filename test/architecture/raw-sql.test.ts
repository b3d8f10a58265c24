// The data-access rule (docs/adr/0119-typed-queries-over-entities.md, docs/adr/0122-one-pool-per-process.md): every
// statement is a typed query over the entities (src/platform/db/typed.ts), with `sql` fragments only for expressions
// inside one. Outside the files the rule allows, src/ has no hand-written statement: no `.query(` call, no raw SQL
// through the ORM's connection, and no string that begins a statement (select, insert into, update ... set,
// delete from, with ... as ().
// The files the rule allows raw SQL in:
// - *.test.ts files, which set up and read back rows directly to check what a service wrote;
// - src/platform/db/migrations/, the schema's history as DDL;
// - src/platform/db/sql.ts, the transaction and session control (begin, commit, rollback, savepoints, session advisory
//   locks, lifted time-outs, the trace context of a connection): statements a query builder has no words for;
// - src/platform/db/typed.ts, which runs the compiled typed queries (and takes transaction advisory locks).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const allowed = [/^platform\/db\/migrations\//, /^platform\/db\/sql\.ts$/, /^platform\/db\/typed\.ts$/, /\.test\.ts$/];

/** A statement sent by hand: pg's `.query(` / `.query<`, or the ORM connection's `execute`. */
const querySite = /\.query\s*[(<]|getConnection\(\)\s*\.execute\s*[(<]/g;

/** A string or template that begins a statement. */
const statementText = /[`'"]\s*(select\s|insert\s+into\s|update\s+"?[a-z_]+"?\s+set\s|delete\s+from\s|with\s+"?[a-z_]+"?\s+as\s*\()/gi;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** `file: count` of each file of src/ outside the allowed ones where the pattern occurs. */
function offenders(pattern: RegExp): string[] {
  const root = join(process.cwd(), 'src');
  return sourceFiles(root).flatMap((file) => {
    const path = relative(root, file).replaceAll('\\', '/');
    if (allowed.some((rule) => rule.test(path))) return [];
    const n = readFileSync(file, 'utf8').match(pattern)?.length ?? 0;
    return n > 0 ? [`${path}: ${n}`] : [];
  });
}

describe('hand-written SQL outside the typed queries', () => {
  it('no statement is sent by hand outside the allowed files', () => {
    expect(offenders(querySite)).toEqual([]);
  });

  it('no statement is written as text outside the allowed files', () => {
    expect(offenders(statementText)).toEqual([]);
  });

  it('reads a hand-written statement the way the rule does', () => {
    const sample = "await db.query('select 1'); await client.query<{ n: number }>(text); const q = query(x);";
    expect(sample.match(querySite)?.length).toBe(2);
    expect('em.getConnection().execute<Row[]>(text)'.match(querySite)?.length).toBe(1);
    const texts = ["'select id from t'", '`\n  with x as (select 1)', '"update rooms set a = 1"', "'delete from t'", "'insert into t'"];
    expect(texts.join(';').match(statementText)?.length).toBe(5);
    // Fragments inside typed statements are expressions, not statements.
    expect("sql`(select count(*) from mentions)` sql`count(*)::int` 'selected'".match(statementText)).toBeNull();
  });
});
