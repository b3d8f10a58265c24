// The data-access ratchet (docs/adr/0119-typed-queries-over-entities.md): statements are built as typed queries over
// the entities (src/platform/db/typed.ts), and the hand-written SQL still run through `.query(` may only shrink. Each
// top-level folder of src/ has a budget of such call sites; a folder converted to typed queries has a budget of 0.
// Counted: every `.query(` / `.query<` call in src/**/*.ts. Not counted (the files the rule allows raw SQL in):
// - *.test.ts files, which set up and read back rows directly to check what a service wrote;
// - src/platform/db/migrations/, the schema's history as DDL;
// - src/platform/db/sql.ts, which sends the transaction and session control (begin, commit, rollback, session
//   advisory locks, lifted time-outs), statements a query builder has no words for;
// - src/platform/db/typed.ts, which runs the compiled typed queries.
// Lower a budget when a folder's count falls; never raise one.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const budgets: Record<string, number> = {
  // top-level folders (and src/*.ts as "src")
  chat: 280,
  partner: 29,
  workspace: 21,
  core: 62,
  platform: 0,
  app: 0,
  cli: 0,
  src: 0,
  // folders converted to typed queries
  'chat/labels': 0,
  'chat/drafts': 0,
  'chat/contacts': 0,
  'chat/channels': 0,
  'chat/members': 0,
  'chat/media': 0,
  'chat/realtime': 0,
  'chat/messages': 0,
  'chat/mentions': 0,
  'chat/search': 0,
  'chat/rooms': 0,
  'chat/pins': 0,
  'chat/threads': 0,
  'partner/kb': 0,
  'partner/ai': 0,
  'partner/storage': 0,
  'partner/gate': 0,
  'partner/idempotency': 0,
  'partner/api-keys': 0,
  'core/crm': 0,
  'core/workspaces': 0,
  'workspace/hr': 0,
  'workspace/tickets': 0,
  'core/inbox': 0,
  'core/webhooks': 0,
  'chat/polls': 0,
  'chat/broadcasts': 0,
  'chat/saved': 0,
  'chat/presence': 0,
  'chat/admin-workspaces': 0,
  'chat/accounts': 0,
  'workspace/approvals': 0,
  'workspace/keys': 0,
  'workspace/audit': 0,
  'workspace/notifications': 0,
  'workspace/crm': 0,
  'workspace/gate': 0,
};

const allowed = [/^platform\/db\/migrations\//, /^platform\/db\/sql\.ts$/, /^platform\/db\/typed\.ts$/, /\.test\.ts$/];

const querySite = /\.query\s*[(<]/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Raw query sites per budgeted folder (a file counts toward its top-level folder and any budgeted sub-folder). */
function countSites(root: string): Record<string, number> {
  const counts: Record<string, number> = Object.fromEntries(Object.keys(budgets).map((key) => [key, 0]));
  for (const file of sourceFiles(root)) {
    const path = relative(root, file).replaceAll('\\', '/');
    if (allowed.some((rule) => rule.test(path))) continue;
    const sites = readFileSync(file, 'utf8').match(querySite)?.length ?? 0;
    if (sites === 0) continue;
    const parts = path.split('/');
    const folders = parts.length === 1 ? ['src'] : [parts[0]!, `${parts[0]}/${parts[1]}`];
    for (const folder of folders) {
      if (folder in counts) counts[folder]! += sites;
      else if (!folder.includes('/')) counts[folder] = sites;
    }
  }
  return counts;
}

describe('hand-written SQL outside the typed queries', () => {
  const counts = countSites(join(process.cwd(), 'src'));

  it('prints the current counts', () => {
    const lines = Object.entries(counts).map(
      ([folder, n]) => `${folder.padEnd(16)} ${String(n).padStart(4)} (budget ${budgets[folder] ?? 0})`,
    );
    process.stdout.write(`Raw .query( sites per folder of src/:\n${lines.join('\n')}\n`);
    expect(Object.keys(counts)).toEqual(expect.arrayContaining(['chat', 'partner', 'workspace', 'core', 'platform', 'app', 'cli']));
  });

  it('stays within each folder budget, so the count only falls', () => {
    const over = Object.entries(counts).filter(([folder, n]) => n > (budgets[folder] ?? 0));
    expect(over.map(([folder, n]) => `${folder}: ${n} raw query sites, budget ${budgets[folder] ?? 0}`)).toEqual([]);
  });

  it('counts a site the way the rule reads it', () => {
    const sample = "await db.query('select 1'); await client.query<{ n: number }>(text); const q = query(x);";
    expect(sample.match(querySite)?.length).toBe(2);
  });
});
