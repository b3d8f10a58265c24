// What the development key tools share: the development owner account and one workspace per (name, owner), made
// when missing. Callers run these inside their transaction, after taking the advisory lock below.
import { newId } from '../platform/ids.js';
import { lockKey, type Runner } from '../platform/db/typed.js';
import { addModule } from '../app/queries.js';
import { accountExists, addAccount, addWorkspace, anyAccountNamed, workspaceNamed } from './queries.js';

/** Serialises the development tools, so two runs at once find one workspace instead of making two. */
export async function lockDevTools(db: Runner): Promise<void> {
  await lockKey(db, 'dev-api-key');
}

const devOwnerName = 'Development workspace owner';

/** The given account (which must exist), else the development owner account of the dev module, made once. */
export async function devOwner(db: Runner, owner: string | undefined): Promise<string | null> {
  if (owner !== undefined) return (await accountExists(db, owner)) ? owner : null;
  await addModule(db, 'dev', 'Development');
  const id = (await anyAccountNamed(db, 'dev', 'dev', devOwnerName)) ?? newId();
  await addAccount(db, { id, moduleCode: 'dev', customer: 'dev', displayName: devOwnerName });
  return id;
}

/** The owner's workspace of that name, created on the given partner plan (with its owner member) when missing. */
export async function devWorkspace(db: Runner, name: string, owner: string, plan: string): Promise<{ id: string; created: boolean }> {
  const found = await workspaceNamed(db, name, owner);
  if (found) return { id: found, created: false };
  const id = newId();
  await addWorkspace(db, { id, name, plan, owner });
  return { id, created: true };
}
