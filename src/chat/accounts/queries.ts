// The statements of account administration outside the ORM's entity operations: the admin gate's type check, the
// module check, and registration and metadata writes (the username in the same statement, so a taken one fails it).
import { sql } from 'kysely';
import type { SqlClient } from '../../platform/db/sql.js';
import { affected, firstRow, type Runner } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import { chatDb } from '../base/tables.js';
import { accountColumns, type AccountRow, type AccountType } from './views.js';

export interface MetadataInput {
  team?: string | null;
  department?: string | null;
  role?: string | null;
  tags?: string[];
}

/** The metadata update: metadata and the account's e-mail address (absent: unchanged, null: cleared). */
export interface MetadataUpdate extends MetadataInput {
  email?: string | null;
  username?: string | null;
}

export interface RegisterInput {
  id: string;
  moduleCode: string;
  customerAccountId: string;
  displayName: string;
  avatarUrl?: string | null;
  accountType?: AccountType;
  metadata?: MetadataInput;
  email?: string | null;
  username?: string | null;
}

/** A text[] parameter: node-postgres writes the array literal with every element quoted. */
const textArray = (values: string[]) => sql<string[]>`${values}::text[]`;

/** The metadata fields given (absent ones stay as they are), as columns to write. */
function metadataColumns(metadata: MetadataInput | undefined) {
  return {
    ...(metadata?.team !== undefined ? { team: metadata.team } : {}),
    ...(metadata?.department !== undefined ? { department: metadata.department } : {}),
    ...(metadata?.role !== undefined ? { role: metadata.role } : {}),
    ...(metadata?.tags !== undefined ? { tags: textArray([...new Set(metadata.tags)]) } : {}),
  };
}

/** The account's type, or undefined when there is no such account. */
export async function accountTypeOf(db: Runner, accountId: string) {
  return firstRow(db, chatDb.selectFrom('accounts').select('account_type').where('id', '=', accountId));
}

export async function moduleExists(db: Runner, code: string): Promise<boolean> {
  return (await affected(db, chatDb.selectFrom('modules').select('code').where('code', '=', code))) > 0;
}

/** Locks the account's row so concurrent upserts of one account serialise; undefined when there is none yet. */
export async function lockAccount(client: SqlClient, id: string) {
  return firstRow(
    client,
    chatDb.selectFrom('accounts').select(['module_code', 'customer_account_id', 'status']).where('id', '=', id).forUpdate(),
  );
}

/** A registration again: the fields given are written, the others stay. */
export async function updateRegistered(client: SqlClient, input: RegisterInput, now: Date): Promise<AccountRow | undefined> {
  return firstRow(
    client,
    chatDb
      .updateTable('accounts')
      .set({
        display_name: input.displayName,
        ...(input.avatarUrl !== undefined ? { avatar_url: input.avatarUrl } : {}),
        ...(input.accountType !== undefined ? { account_type: input.accountType } : {}),
        ...(input.email !== undefined ? { email: input.email } : {}),
        ...(input.username !== undefined ? { username: input.username } : {}),
        ...metadataColumns(input.metadata),
        updated_at: now,
      })
      .where('id', '=', input.id)
      .returning(accountColumns),
  );
}

/** A first registration: an ACTIVE account, a USER unless the input says otherwise. */
export async function insertRegistered(client: SqlClient, input: RegisterInput, now: Date): Promise<AccountRow | undefined> {
  return firstRow(
    client,
    chatDb
      .insertInto('accounts')
      .values({
        id: input.id,
        module_code: input.moduleCode,
        customer_account_id: input.customerAccountId,
        display_name: input.displayName,
        avatar_url: input.avatarUrl ?? null,
        account_type: input.accountType ?? 'USER',
        status: 'ACTIVE',
        team: null,
        department: null,
        role: null,
        tags: textArray([]),
        email: input.email ?? null,
        username: input.username ?? null,
        created_at: now,
        updated_at: now,
        ...metadataColumns(input.metadata),
      })
      .returning(accountColumns),
  );
}

/** Writes the metadata given of an account within the scope (null: any); undefined when there is none. */
export async function updateMetadata(
  client: SqlClient,
  id: string,
  scope: { moduleCode: string; customerAccountId: string } | null,
  metadata: MetadataUpdate,
  now: Date,
): Promise<AccountRow | undefined> {
  const set = (field: keyof MetadataUpdate) => metadata[field] !== undefined;
  return firstRow(
    client,
    chatDb
      .updateTable('accounts')
      .set({
        ...metadataColumns(metadata),
        updated_at: now,
        ...(set('email') ? { email: metadata.email ?? null } : {}),
        ...(set('username') ? { username: metadata.username ?? null } : {}),
      })
      .where('id', '=', id)
      // an erased account is gone for administration (docs/adr/0156-account-erasure.md)
      .where('status', '<>', 'ERASED')
      .$if(scope !== null, (q) =>
        q.where('module_code', '=', scope!.moduleCode).where('customer_account_id', '=', scope!.customerAccountId),
      )
      .returning(accountColumns),
  );
}

const registration: RegisterInput = {
  id: example.id,
  moduleCode: 'crm',
  customerAccountId: 'acme',
  displayName: example.text,
  avatarUrl: null,
  accountType: 'USER',
  metadata: { team: 'a', department: 'b', role: 'c', tags: ['x'] },
  email: null,
  username: 'user',
};

export const examples: QueryExamples = {
  accountTypeOf: (db) => accountTypeOf(db, example.id),
  moduleExists: (db) => moduleExists(db, 'crm'),
  lockAccount: (db) => lockAccount(db, example.id),
  updateRegistered: (db) => updateRegistered(db, registration, example.at),
  insertRegistered: (db) => insertRegistered(db, registration, example.at),
  updateMetadata: (db) =>
    updateMetadata(
      db,
      example.id,
      { moduleCode: 'crm', customerAccountId: 'acme' },
      { tags: ['x'], email: null, username: 'user' },
      example.at,
    ),
};
