// The statements of the development tools: development accounts, workspaces and signing keys, made when missing.
import type { Updateable } from 'kysely';
import { affected, firstRow, type Runner } from '../platform/db/typed.js';
import { example, type QueryExamples } from '../platform/db/query-examples.js';
import { chatDb } from '../chat/base/tables.js';
import { coreDb, type CoreTables } from '../core/tables.js';

export async function accountExists(db: Runner, id: string): Promise<boolean> {
  return (await firstRow(db, chatDb.selectFrom('accounts').select('id').where('id', '=', id))) !== undefined;
}

/** The id of an account of the module and customer with this display name, any one. */
export async function anyAccountNamed(db: Runner, moduleCode: string, customer: string, displayName: string) {
  const found = await firstRow(
    db,
    chatDb
      .selectFrom('accounts')
      .select('id')
      .where('module_code', '=', moduleCode)
      .where('customer_account_id', '=', customer)
      .where('display_name', '=', displayName)
      .limit(1),
  );
  return found?.id;
}

/** The id of the oldest account of the module and customer with this display name. */
export async function oldestAccountNamed(db: Runner, moduleCode: string, customer: string, displayName: string) {
  const found = await firstRow(
    db,
    chatDb
      .selectFrom('accounts')
      .select('id')
      .where('module_code', '=', moduleCode)
      .where('customer_account_id', '=', customer)
      .where('display_name', '=', displayName)
      .orderBy('created_at')
      .limit(1),
  );
  return found?.id;
}

export interface DevAccount {
  id: string;
  moduleCode: string;
  customer: string;
  displayName: string;
}

const accountValues = (account: DevAccount) => ({
  id: account.id,
  module_code: account.moduleCode,
  customer_account_id: account.customer,
  display_name: account.displayName,
  account_type: 'USER',
  status: 'ACTIVE',
});

/** Writes the active USER account unless its id exists. */
export async function addAccount(db: Runner, account: DevAccount): Promise<void> {
  await affected(
    db,
    chatDb
      .insertInto('accounts')
      .values(accountValues(account))
      .onConflict((oc) => oc.column('id').doNothing()),
  );
}

/** Writes the active USER account unless its id exists; the module and customer of the stored row either way. */
export async function ensureAccount(db: Runner, account: DevAccount) {
  // The no-op update returns the stored row when the account exists, so its module and customer can be compared.
  return (await firstRow(
    db,
    chatDb
      .insertInto('accounts')
      .values(accountValues(account))
      .onConflict((oc) => oc.column('id').doUpdateSet((eb) => ({ id: eb.ref('excluded.id') })))
      .returning(['module_code', 'customer_account_id']),
  ))!;
}

/** The id of the owner's oldest workspace of that name. */
export async function workspaceNamed(db: Runner, name: string, owner: string) {
  const found = await firstRow(
    db,
    coreDb.selectFrom('workspaces').select('id').where('name', '=', name).where('owner_id', '=', owner).orderBy('created_at').limit(1),
  );
  return found?.id;
}

/** Writes the workspace and its owner member. */
export async function addWorkspace(db: Runner, workspace: { id: string; name: string; plan: string; owner: string }): Promise<void> {
  const { id, name, plan, owner } = workspace;
  await affected(db, coreDb.insertInto('workspaces').values({ id, name, plan, owner_id: owner }));
  await affected(db, coreDb.insertInto('workspace_members').values({ workspace_id: id, account_id: owner, role: 'owner' }));
}

type WorkspaceChange = Pick<Updateable<CoreTables['workspaces']>, 'svc_plan' | 'svc_rate_per_hour' | 'svc_rate_per_minute'>;

export async function updateWorkspace(db: Runner, workspaceId: string, change: WorkspaceChange): Promise<void> {
  await affected(db, coreDb.updateTable('workspaces').where('id', '=', workspaceId).set(change));
}

/** Moves the workspace to the business plan; true when it was on another. */
export async function upgradeToBusiness(db: Runner, workspaceId: string): Promise<boolean> {
  const toBusiness = coreDb
    .updateTable('workspaces')
    .set({ plan: 'business' })
    .where('id', '=', workspaceId)
    .where('plan', '<>', 'business');
  return (await affected(db, toBusiness)) > 0;
}

export interface CustomerKey {
  id: string;
  moduleCode: string;
  customer: string;
  kid: string;
  publicKeyPem: string;
  fingerprint: string;
}

/** Registers the ES256 verify key unless it is registered; true when it was new. */
export async function addCustomerKey(db: Runner, key: CustomerKey): Promise<boolean> {
  const added = await affected(
    db,
    chatDb
      .insertInto('customer_keys')
      .values({
        id: key.id,
        module_code: key.moduleCode,
        customer_account_id: key.customer,
        kid: key.kid,
        algorithm: 'ES256',
        public_key_pem: key.publicKeyPem,
        fingerprint: key.fingerprint,
      })
      .onConflict((oc) => oc.doNothing()),
  );
  return added > 0;
}

const account: DevAccount = { id: example.id, moduleCode: 'dev', customer: 'dev', displayName: example.text };

export const examples: QueryExamples = {
  accountExists: (db) => accountExists(db, example.id),
  anyAccountNamed: (db) => anyAccountNamed(db, 'dev', 'dev', example.text),
  oldestAccountNamed: (db) => oldestAccountNamed(db, 'dev', 'dev', example.text),
  addAccount: (db) => addAccount(db, account),
  ensureAccount: (db) => ensureAccount(db, account),
  workspaceNamed: (db) => workspaceNamed(db, example.text, example.id),
  addWorkspace: (db) => addWorkspace(db, { id: example.id, name: example.text, plan: 'free', owner: example.otherId }),
  updateWorkspace: (db) => updateWorkspace(db, example.id, { svc_plan: 'pro' }),
  upgradeToBusiness: (db) => upgradeToBusiness(db, example.id),
  addCustomerKey: (db) =>
    addCustomerKey(db, {
      id: example.id,
      moduleCode: 'dev',
      customer: 'dev',
      kid: 'dev-1',
      publicKeyPem: example.text,
      fingerprint: example.text,
    }),
};
