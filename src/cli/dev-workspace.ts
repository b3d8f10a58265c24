// What the development key tools share: the development owner account and one workspace per (name, owner), made
// when missing. Callers run these inside their transaction, after taking the advisory lock below.
import type pg from 'pg';
import { newId } from '../platform/ids.js';

/** Serialises the development tools, so two runs at once find one workspace instead of making two. */
export async function lockDevTools(db: pg.ClientBase): Promise<void> {
  await db.query("select pg_advisory_xact_lock(hashtext('dev-api-key'))");
}

/** The given account (which must exist), else the development owner account of the dev module, made once. */
export async function devOwner(db: pg.ClientBase, owner: string | undefined): Promise<string | null> {
  if (owner !== undefined) return (await db.query('select 1 from accounts where id = $1', [owner])).rowCount ? owner : null;
  await db.query("insert into modules (code, name) values ('dev', 'Development') on conflict do nothing");
  const existing = await db.query<{ id: string }>(
    "select id from accounts where module_code = 'dev' and customer_account_id = 'dev' and display_name = 'Development workspace owner' limit 1",
  );
  const id = existing.rows[0]?.id ?? newId();
  await db.query(
    `insert into accounts (id, module_code, customer_account_id, display_name, account_type, status)
     values ($1, 'dev', 'dev', 'Development workspace owner', 'USER', 'ACTIVE') on conflict (id) do nothing`,
    [id],
  );
  return id;
}

/** The owner's workspace of that name, created on the given partner plan (with its owner member) when missing. */
export async function devWorkspace(
  db: pg.ClientBase,
  name: string,
  owner: string,
  plan: string,
): Promise<{ id: string; created: boolean }> {
  const found = await db.query<{ id: string }>('select id from workspaces where name = $1 and owner_id = $2 order by created_at limit 1', [
    name,
    owner,
  ]);
  const existing = found.rows[0]?.id;
  if (existing) return { id: existing, created: false };
  const id = newId();
  await db.query('insert into workspaces (id, name, plan, owner_id) values ($1, $2, $3, $4)', [id, name, plan, owner]);
  await db.query("insert into workspace_members (workspace_id, account_id, role) values ($1, $2, 'owner')", [id, owner]);
  return { id, created: true };
}
