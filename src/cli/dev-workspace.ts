// What the development key tools share: the development owner account and one workspace per (name, owner), made
// when missing. Callers run these inside their transaction, after taking the advisory lock below.
import { chatDb } from '../chat/base/tables.js';
import { coreDb } from '../core/tables.js';
import { newId } from '../platform/ids.js';
import { affected, firstRow, lockKey, type Runner } from '../platform/db/typed.js';

/** Serialises the development tools, so two runs at once find one workspace instead of making two. */
export async function lockDevTools(db: Runner): Promise<void> {
  await lockKey(db, 'dev-api-key');
}

const devOwnerName = 'Development workspace owner';

/** The given account (which must exist), else the development owner account of the dev module, made once. */
export async function devOwner(db: Runner, owner: string | undefined): Promise<string | null> {
  if (owner !== undefined) return (await firstRow(db, chatDb.selectFrom('accounts').select('id').where('id', '=', owner))) ? owner : null;
  await affected(
    db,
    chatDb
      .insertInto('modules')
      .values({ code: 'dev', name: 'Development' })
      .onConflict((oc) => oc.doNothing()),
  );
  const existing = await firstRow(
    db,
    chatDb
      .selectFrom('accounts')
      .select('id')
      .where('module_code', '=', 'dev')
      .where('customer_account_id', '=', 'dev')
      .where('display_name', '=', devOwnerName)
      .limit(1),
  );
  const id = existing?.id ?? newId();
  await affected(
    db,
    chatDb
      .insertInto('accounts')
      .values({ id, module_code: 'dev', customer_account_id: 'dev', display_name: devOwnerName, account_type: 'USER', status: 'ACTIVE' })
      .onConflict((oc) => oc.column('id').doNothing()),
  );
  return id;
}

/** The owner's workspace of that name, created on the given partner plan (with its owner member) when missing. */
export async function devWorkspace(db: Runner, name: string, owner: string, plan: string): Promise<{ id: string; created: boolean }> {
  const found = await firstRow(
    db,
    coreDb.selectFrom('workspaces').select('id').where('name', '=', name).where('owner_id', '=', owner).orderBy('created_at').limit(1),
  );
  if (found) return { id: found.id, created: false };
  const id = newId();
  await affected(db, coreDb.insertInto('workspaces').values({ id, name, plan, owner_id: owner }));
  await affected(db, coreDb.insertInto('workspace_members').values({ workspace_id: id, account_id: owner, role: 'owner' }));
  return { id, created: true };
}
