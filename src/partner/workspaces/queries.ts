// The statements of workspace administration: workspaces and their plan, members, custom roles and their API Keys
// cells (role_cells).
import { sql } from 'kysely';
import { affected, firstRow, rows, type Runner } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import { partnerDb } from '../base/tables.js';
import type { Cells } from './permissions.js';

/** A keyset position of a list ordered by (time, id). */
export interface TimePosition {
  at: string;
  id: string;
}

export async function insertWorkspace(
  db: Runner,
  workspace: { id: string; name: string; plan: string; ownerId: string; at: Date },
): Promise<void> {
  await affected(
    db,
    partnerDb.insertInto('workspaces').values({
      id: workspace.id,
      name: workspace.name,
      plan: workspace.plan,
      owner_id: workspace.ownerId,
      created_at: workspace.at,
      updated_at: workspace.at,
    }),
  );
}

export async function insertMember(db: Runner, workspaceId: string, accountId: string, role: string, at: Date): Promise<void> {
  await affected(
    db,
    partnerDb.insertInto('workspace_members').values({ workspace_id: workspaceId, account_id: accountId, role, added_at: at }),
  );
}

/** A page of the account's workspaces with its role in each, newest first, after the cursor's position. */
export function workspacePage(db: Runner, accountId: string, after: TimePosition | undefined, limit: number) {
  return rows(
    db,
    partnerDb
      .selectFrom('workspace_members as m')
      .innerJoin('workspaces as w', 'w.id', 'm.workspace_id')
      .select(['w.id', 'w.name', 'w.plan', 'w.owner_id', 'w.created_at', 'm.role as my_role'])
      .where('m.account_id', '=', accountId)
      .$if(after !== undefined, (qb) => qb.where(sql<boolean>`(w.created_at, w.id) < (${after!.at}::timestamptz, ${after!.id}::uuid)`))
      .orderBy('w.created_at', 'desc')
      .orderBy('w.id', 'desc')
      .limit(limit),
  );
}

/** How many workspaces got the plan (0 when there is none of this id). */
export function setWorkspacePlan(db: Runner, workspaceId: string, plan: string, at: Date): Promise<number> {
  return affected(db, partnerDb.updateTable('workspaces').set({ plan, updated_at: at }).where('id', '=', workspaceId));
}

/** A page of the workspace's members by the time they were added, after the cursor's position. */
export function memberPage(db: Runner, workspaceId: string, after: TimePosition | undefined, limit: number) {
  return rows(
    db,
    partnerDb
      .selectFrom('workspace_members as m')
      // Every member's account exists (foreign key): the join keeps every member.
      .innerJoin('accounts as a', 'a.id', 'm.account_id')
      .select(['m.account_id', 'a.display_name', 'm.role', 'm.added_at'])
      .where('m.workspace_id', '=', workspaceId)
      .$if(after !== undefined, (qb) =>
        qb.where(sql<boolean>`(m.added_at, m.account_id) > (${after!.at}::timestamptz, ${after!.id}::uuid)`),
      )
      .orderBy('m.added_at')
      .orderBy('m.account_id')
      .limit(limit),
  );
}

/** True when the account is an active one of this module and customer. */
export async function activeAccountExists(
  db: Runner,
  accountId: string,
  scope: { moduleCode: string; customerAccountId: string },
): Promise<boolean> {
  const account = await firstRow(
    db,
    partnerDb
      .selectFrom('accounts')
      .select('id')
      .where('id', '=', accountId)
      .where('module_code', '=', scope.moduleCode)
      .where('customer_account_id', '=', scope.customerAccountId)
      .where('status', '=', 'ACTIVE'),
  );
  return account !== undefined;
}

/** Adds the member or changes its role; the member row with its account's display name. */
export async function upsertMember(db: Runner, workspaceId: string, accountId: string, role: string, at: Date) {
  const [member] = await rows(
    db,
    partnerDb
      .with('put', (qb) =>
        qb
          .insertInto('workspace_members')
          .values({ workspace_id: workspaceId, account_id: accountId, role, added_at: at })
          .onConflict((oc) => oc.columns(['workspace_id', 'account_id']).doUpdateSet((eb) => ({ role: eb.ref('excluded.role') })))
          .returning(['account_id', 'role', 'added_at']),
      )
      .selectFrom('put')
      .innerJoin('accounts as a', 'a.id', 'put.account_id')
      .select(['put.account_id', 'a.display_name', 'put.role', 'put.added_at']),
  );
  return member!;
}

/** How many members were removed (0 or 1). */
export function deleteMember(db: Runner, workspaceId: string, accountId: string): Promise<number> {
  return affected(
    db,
    partnerDb.deleteFrom('workspace_members').where('workspace_id', '=', workspaceId).where('account_id', '=', accountId),
  );
}

/** The names of the workspace's custom roles, by creation. */
export async function customRoleNames(db: Runner, workspaceId: string): Promise<string[]> {
  const found = await rows(
    db,
    partnerDb.selectFrom('workspace_roles').select('name').where('workspace_id', '=', workspaceId).orderBy('created_at').orderBy('name'),
  );
  return found.map((r) => r.name);
}

/** Inserts the custom role unless it exists; true when it was created. */
export async function insertRole(db: Runner, workspaceId: string, name: string, at: Date): Promise<boolean> {
  const created = await affected(
    db,
    partnerDb
      .insertInto('workspace_roles')
      .values({ workspace_id: workspaceId, name, created_at: at })
      .onConflict((oc) => oc.doNothing()),
  );
  return created > 0;
}

export async function customRoleExists(db: Runner, workspaceId: string, name: string): Promise<boolean> {
  const found = await firstRow(
    db,
    partnerDb.selectFrom('workspace_roles').select('name').where('workspace_id', '=', workspaceId).where('name', '=', name),
  );
  return found !== undefined;
}

/** The explicit cells set for the workspace's roles (or one role of it). */
export function roleCellRows(db: Runner, workspaceId: string, role?: string) {
  return rows(
    db,
    partnerDb
      .selectFrom('role_cells')
      .select(['role', 'cell', 'granted'])
      .where('workspace_id', '=', workspaceId)
      .$if(role !== undefined, (qb) => qb.where('role', '=', role!)),
  );
}

/** Writes all three API Keys cells of a role explicitly, so later changes of the defaults no longer apply to it. */
export async function upsertRoleCells(db: Runner, workspaceId: string, role: string, cells: Cells, at: Date): Promise<void> {
  const granted = [cells.view, cells.create, cells.delete];
  const given = sql<{
    cell: string;
    granted: boolean;
  }>`unnest(array['api_keys.view', 'api_keys.create', 'api_keys.delete'], ${granted}::boolean[])`;
  await affected(
    db,
    partnerDb
      .insertInto('role_cells')
      .columns(['workspace_id', 'role', 'cell', 'granted', 'updated_at'])
      .expression((eb) =>
        eb
          .selectFrom(given.as<'c'>(sql`c(cell, granted)`))
          .select([eb.val(workspaceId).as('workspace_id'), eb.val(role).as('role'), 'c.cell', 'c.granted', eb.val(at).as('updated_at')]),
      )
      .onConflict((oc) =>
        oc
          .columns(['workspace_id', 'role', 'cell'])
          .doUpdateSet((eb) => ({ granted: eb.ref('excluded.granted'), updated_at: eb.ref('excluded.updated_at') })),
      ),
  );
}

const position = { at: example.at.toISOString(), id: example.otherId };

export const examples: QueryExamples = {
  insertWorkspace: (db) =>
    insertWorkspace(db, { id: example.id, name: example.text, plan: 'free', ownerId: example.otherId, at: example.at }),
  insertMember: (db) => insertMember(db, example.id, example.otherId, 'owner', example.at),
  workspacePage: (db) => workspacePage(db, example.id, position, 51),
  setWorkspacePlan: (db) => setWorkspacePlan(db, example.id, 'pro', example.at),
  memberPage: (db) => memberPage(db, example.id, position, 51),
  activeAccountExists: (db) => activeAccountExists(db, example.otherId, { moduleCode: 'crm', customerAccountId: example.id }),
  upsertMember: (db) => upsertMember(db, example.id, example.otherId, 'staff', example.at),
  deleteMember: (db) => deleteMember(db, example.id, example.otherId),
  customRoleNames: (db) => customRoleNames(db, example.id),
  insertRole: (db) => insertRole(db, example.id, 'support', example.at),
  customRoleExists: (db) => customRoleExists(db, example.id, 'support'),
  roleCellRows: (db) => roleCellRows(db, example.id, 'support'),
  upsertRoleCells: (db) => upsertRoleCells(db, example.id, 'support', { view: true, create: true, delete: false }, example.at),
};
