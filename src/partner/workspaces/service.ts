// Workspace administration: workspaces and their plan, members and roles with their API Keys cells.
import type { Caller } from '../../core/auth/caller.js';
import { sql } from 'kysely';
import { inTransaction } from '../../platform/db/sql.js';
import { affected, firstRow, rows } from '../../platform/db/typed.js';
import { boundList, cursorInstant, cursorUuid, decodeCursor, encodeCursor } from '../../platform/http/cursor.js';
import { newId } from '../../platform/ids.js';
import type { PartnerDeps } from '../base/deps.js';
import { partnerErrors } from '../base/errors.js';
import { partnerDb } from '../base/tables.js';
import {
  cellOverrides,
  cellsOf,
  customRoleExists,
  loadWorkspace,
  requireManage,
  roleExists,
  workspaceNotFound,
  writeCells,
} from './access.js';
import { builtInRoles, effectiveCells, isBuiltInRole, lockedRoles, type Cells } from './permissions.js';
import { defaultPlan, planById } from './plans.js';
import { listOf, memberView, roleView, workspaceView, type ListEnvelope } from './views.js';

export interface PageQuery {
  limit?: number;
  cursor?: string;
}

type WorkspaceView = ReturnType<typeof workspaceView>;
type MemberView = ReturnType<typeof memberView>;
type RoleView = ReturnType<typeof roleView>;

/** A keyset cursor of (timestamp, id) of that list; anything else is bad input. */
function parseCursor(list: string, raw: string): { at: string; id: string } {
  const c = decodeCursor(raw, list);
  const at = c && cursorInstant(c.a);
  const id = c && cursorUuid(c.i);
  if (!at || !id) throw partnerErrors.badInput('query.cursor', 'is not a cursor of this list');
  return { at, id };
}

const ownerImmutable = () => partnerErrors.conflict('owner_immutable', "The workspace owner's role cannot be given, changed or removed.");

export class WorkspaceService {
  constructor(private readonly deps: PartnerDeps) {}

  async create(caller: Caller, name: string): Promise<WorkspaceView> {
    const id = newId();
    const now = this.deps.clock.now();
    await inTransaction(this.deps.sql, async (client) => {
      await affected(
        client,
        partnerDb
          .insertInto('workspaces')
          .values({ id, name, plan: defaultPlan, owner_id: caller.accountId, created_at: now, updated_at: now }),
      );
      await affected(
        client,
        partnerDb.insertInto('workspace_members').values({ workspace_id: id, account_id: caller.accountId, role: 'owner', added_at: now }),
      );
    });
    return workspaceView({ id, name, plan: defaultPlan, owner_id: caller.accountId, created_at: now, my_role: 'owner' });
  }

  /** The caller's workspaces, newest first. */
  async list(caller: Caller, query: PageQuery): Promise<ListEnvelope<WorkspaceView>> {
    const limit = query.limit ?? 50;
    // The caller's own list: a cursor of another account's list is refused.
    const list = boundList('workspaces', [caller.accountId]);
    const c = query.cursor === undefined ? undefined : parseCursor(list, query.cursor);
    const found = await rows(
      this.deps.sql,
      partnerDb
        .selectFrom('workspace_members as m')
        .innerJoin('workspaces as w', 'w.id', 'm.workspace_id')
        .select(['w.id', 'w.name', 'w.plan', 'w.owner_id', 'w.created_at', 'm.role as my_role'])
        .where('m.account_id', '=', caller.accountId)
        .$if(c !== undefined, (qb) => qb.where(sql<boolean>`(w.created_at, w.id) < (${c!.at}::timestamptz, ${c!.id}::uuid)`))
        .orderBy('w.created_at', 'desc')
        .orderBy('w.id', 'desc')
        .limit(limit + 1),
    );
    const page = found.slice(0, limit);
    const last = page[page.length - 1];
    return listOf(
      page.map(workspaceView),
      found.length > limit,
      last ? encodeCursor({ a: last.created_at.toISOString(), i: last.id }, list) : null,
    );
  }

  async get(caller: Caller, workspaceId: string): Promise<WorkspaceView> {
    return workspaceView(await loadWorkspace(this.deps.sql, workspaceId, caller, true));
  }

  async setPlan(caller: Caller, workspaceId: string, plan: string): Promise<WorkspaceView> {
    if (!caller.platformAdmin) throw partnerErrors.platformAdminRequired();
    if (!planById(plan)) throw partnerErrors.badInput('body.plan', `is not a plan of GET /api/v1/plans: ${plan}`);
    const updated = await affected(
      this.deps.sql,
      partnerDb.updateTable('workspaces').set({ plan, updated_at: this.deps.clock.now() }).where('id', '=', workspaceId),
    );
    if (!updated) throw workspaceNotFound();
    // The key gates cache each key's plan: every node forgets them before the change is answered.
    await this.deps.gateKeys?.invalidate();
    return this.get(caller, workspaceId);
  }

  async listMembers(caller: Caller, workspaceId: string, query: PageQuery): Promise<ListEnvelope<MemberView>> {
    await loadWorkspace(this.deps.sql, workspaceId, caller);
    const limit = query.limit ?? 50;
    const list = boundList('workspace_members', [caller.accountId, workspaceId]);
    const c = query.cursor === undefined ? undefined : parseCursor(list, query.cursor);
    const found = await rows(
      this.deps.sql,
      partnerDb
        .selectFrom('workspace_members as m')
        // Every member's account exists (foreign key): the join keeps every member.
        .innerJoin('accounts as a', 'a.id', 'm.account_id')
        .select(['m.account_id', 'a.display_name', 'm.role', 'm.added_at'])
        .where('m.workspace_id', '=', workspaceId)
        .$if(c !== undefined, (qb) => qb.where(sql<boolean>`(m.added_at, m.account_id) > (${c!.at}::timestamptz, ${c!.id}::uuid)`))
        .orderBy('m.added_at')
        .orderBy('m.account_id')
        .limit(limit + 1),
    );
    const page = found.slice(0, limit);
    const last = page[page.length - 1];
    return listOf(
      page.map(memberView),
      found.length > limit,
      last ? encodeCursor({ a: last.added_at.toISOString(), i: last.account_id }, list) : null,
    );
  }

  /** Adds an account or changes its role. The account must be an active one of the caller's module and customer. */
  async putMember(caller: Caller, workspaceId: string, accountId: string, role: string): Promise<MemberView> {
    const workspace = await loadWorkspace(this.deps.sql, workspaceId, caller);
    requireManage(workspace);
    if (role === 'owner') throw ownerImmutable();
    if (!(await roleExists(this.deps.sql, workspaceId, role))) {
      throw partnerErrors.badInput('body.role', `is not a role of this workspace: ${role} (admin, manager, staff or a custom role)`);
    }
    if (accountId === workspace.owner_id) throw ownerImmutable();
    const account = await firstRow(
      this.deps.sql,
      partnerDb
        .selectFrom('accounts')
        .select('id')
        .where('id', '=', accountId)
        .where('module_code', '=', caller.moduleCode)
        .where('customer_account_id', '=', caller.customerAccountId)
        .where('status', '=', 'ACTIVE'),
    );
    if (!account) throw partnerErrors.notFound('account_not_found', 'The account');
    const [member] = await rows(
      this.deps.sql,
      partnerDb
        .with('put', (db) =>
          db
            .insertInto('workspace_members')
            .values({ workspace_id: workspaceId, account_id: accountId, role, added_at: this.deps.clock.now() })
            .onConflict((oc) => oc.columns(['workspace_id', 'account_id']).doUpdateSet((eb) => ({ role: eb.ref('excluded.role') })))
            .returning(['account_id', 'role', 'added_at']),
        )
        .selectFrom('put')
        .innerJoin('accounts as a', 'a.id', 'put.account_id')
        .select(['put.account_id', 'a.display_name', 'put.role', 'put.added_at']),
    );
    return memberView(member!);
  }

  async removeMember(caller: Caller, workspaceId: string, accountId: string): Promise<void> {
    const workspace = await loadWorkspace(this.deps.sql, workspaceId, caller);
    requireManage(workspace);
    if (accountId === workspace.owner_id) throw ownerImmutable();
    const removed = await affected(
      this.deps.sql,
      partnerDb.deleteFrom('workspace_members').where('workspace_id', '=', workspaceId).where('account_id', '=', accountId),
    );
    if (!removed) throw partnerErrors.notFound('member_not_found', 'The member');
  }

  /** Built-in roles first, then custom roles by creation, each with its effective cells today. */
  async listRoles(caller: Caller, workspaceId: string): Promise<ListEnvelope<RoleView>> {
    await loadWorkspace(this.deps.sql, workspaceId, caller);
    const now = this.deps.clock.now();
    const [custom, overrides] = await Promise.all([
      rows(
        this.deps.sql,
        partnerDb
          .selectFrom('workspace_roles')
          .select('name')
          .where('workspace_id', '=', workspaceId)
          .orderBy('created_at')
          .orderBy('name'),
      ),
      cellOverrides(this.deps.sql, workspaceId),
    ]);
    const names = [...builtInRoles, ...custom.map((r) => r.name)];
    return listOf(names.map((name) => roleView(name, effectiveCells(name, overrides.get(name) ?? {}, now))));
  }

  async createRole(caller: Caller, workspaceId: string, name: string, cells?: Cells): Promise<RoleView> {
    requireManage(await loadWorkspace(this.deps.sql, workspaceId, caller));
    const roleExistsError = () =>
      partnerErrors.conflict('role_exists', `The role ${name} already exists in this workspace.`, { role: name });
    if (isBuiltInRole(name)) throw roleExistsError();
    const now = this.deps.clock.now();
    await inTransaction(this.deps.sql, async (client) => {
      const created = await affected(
        client,
        partnerDb
          .insertInto('workspace_roles')
          .values({ workspace_id: workspaceId, name, created_at: now })
          .onConflict((oc) => oc.doNothing()),
      );
      if (!created) throw roleExistsError();
      if (cells) await writeCells(client, workspaceId, name, cells, now);
    });
    return roleView(name, effectiveCells(name, cells ?? {}, now));
  }

  async setRoleCells(caller: Caller, workspaceId: string, role: string, cells: Cells): Promise<RoleView> {
    requireManage(await loadWorkspace(this.deps.sql, workspaceId, caller));
    if (lockedRoles.includes(role)) {
      throw partnerErrors.conflict('role_locked', `The cells of the ${role} role are fixed.`, { role });
    }
    if (!isBuiltInRole(role) && !(await customRoleExists(this.deps.sql, workspaceId, role))) {
      throw partnerErrors.notFound('role_not_found', `The role ${role}`);
    }
    const now = this.deps.clock.now();
    await writeCells(this.deps.sql, workspaceId, role, cells, now);
    return roleView(role, await cellsOf(this.deps.sql, workspaceId, role, now));
  }
}
