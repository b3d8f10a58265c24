// Workspace administration: workspaces and their plan, members and roles with their API Keys cells.
import type { Caller } from '../../core/auth/caller.js';
import { inTransaction } from '../../platform/db/sql.js';
import { cursorInstant, cursorUuid, decodeCursor, encodeCursor } from '../../platform/http/cursor.js';
import { newId } from '../../platform/ids.js';
import type { PartnerDeps } from '../deps.js';
import { partnerErrors } from '../errors.js';
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
import { listOf, memberView, roleView, workspaceView, type ListEnvelope, type MemberRow, type WorkspaceRow } from './views.js';

export interface PageQuery {
  limit?: number;
  cursor?: string;
}

type WorkspaceView = ReturnType<typeof workspaceView>;
type MemberView = ReturnType<typeof memberView>;
type RoleView = ReturnType<typeof roleView>;

/** A keyset cursor of (timestamp, id); anything else is bad input. */
function parseCursor(raw: string): { at: string; id: string } {
  const c = decodeCursor(raw);
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
      await client.query('insert into workspaces (id, name, plan, owner_id, created_at, updated_at) values ($1, $2, $3, $4, $5, $5)', [
        id,
        name,
        defaultPlan,
        caller.accountId,
        now,
      ]);
      await client.query("insert into workspace_members (workspace_id, account_id, role, added_at) values ($1, $2, 'owner', $3)", [
        id,
        caller.accountId,
        now,
      ]);
    });
    return workspaceView({ id, name, plan: defaultPlan, owner_id: caller.accountId, created_at: now, my_role: 'owner' });
  }

  /** The caller's workspaces, newest first. */
  async list(caller: Caller, query: PageQuery): Promise<ListEnvelope<WorkspaceView>> {
    const limit = query.limit ?? 50;
    const params: unknown[] = [caller.accountId];
    let sql = `select w.id, w.name, w.plan, w.owner_id, w.created_at, m.role as my_role
                 from workspace_members m join workspaces w on w.id = m.workspace_id
                where m.account_id = $1`;
    if (query.cursor !== undefined) {
      const c = parseCursor(query.cursor);
      params.push(c.at, c.id);
      sql += ' and (w.created_at, w.id) < ($2::timestamptz, $3::uuid)';
    }
    params.push(limit + 1);
    sql += ` order by w.created_at desc, w.id desc limit $${params.length}`;
    const { rows } = await this.deps.sql.query<WorkspaceRow>(sql, params);
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return listOf(
      page.map(workspaceView),
      rows.length > limit,
      last ? encodeCursor({ a: last.created_at.toISOString(), i: last.id }) : null,
    );
  }

  async get(caller: Caller, workspaceId: string): Promise<WorkspaceView> {
    return workspaceView(await loadWorkspace(this.deps.sql, workspaceId, caller, true));
  }

  async setPlan(caller: Caller, workspaceId: string, plan: string): Promise<WorkspaceView> {
    if (!caller.platformAdmin) throw partnerErrors.platformAdminRequired();
    if (!planById(plan)) throw partnerErrors.badInput('body.plan', `is not a plan of GET /api/v1/plans: ${plan}`);
    const { rowCount } = await this.deps.sql.query('update workspaces set plan = $2, updated_at = $3 where id = $1', [
      workspaceId,
      plan,
      this.deps.clock.now(),
    ]);
    if (!rowCount) throw workspaceNotFound();
    // The key gates cache each key's plan: every node forgets them before the change is answered.
    await this.deps.gateKeys?.invalidate();
    return this.get(caller, workspaceId);
  }

  async listMembers(caller: Caller, workspaceId: string, query: PageQuery): Promise<ListEnvelope<MemberView>> {
    await loadWorkspace(this.deps.sql, workspaceId, caller);
    const limit = query.limit ?? 50;
    const params: unknown[] = [workspaceId];
    let sql = `select m.account_id, a.display_name, m.role, m.added_at
                 from workspace_members m join accounts a on a.id = m.account_id where m.workspace_id = $1`;
    if (query.cursor !== undefined) {
      const c = parseCursor(query.cursor);
      params.push(c.at, c.id);
      sql += ' and (m.added_at, m.account_id) > ($2::timestamptz, $3::uuid)';
    }
    params.push(limit + 1);
    sql += ` order by m.added_at, m.account_id limit $${params.length}`;
    const { rows } = await this.deps.sql.query<MemberRow>(sql, params);
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return listOf(
      page.map(memberView),
      rows.length > limit,
      last ? encodeCursor({ a: last.added_at.toISOString(), i: last.account_id }) : null,
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
    const { rowCount } = await this.deps.sql.query(
      "select 1 from accounts where id = $1 and module_code = $2 and customer_account_id = $3 and status = 'ACTIVE'",
      [accountId, caller.moduleCode, caller.customerAccountId],
    );
    if (!rowCount) throw partnerErrors.notFound('account_not_found', 'The account');
    const { rows } = await this.deps.sql.query<MemberRow>(
      `with put as (
         insert into workspace_members (workspace_id, account_id, role, added_at) values ($1, $2, $3, $4)
         on conflict (workspace_id, account_id) do update set role = excluded.role
         returning account_id, role, added_at)
       select put.account_id, a.display_name, put.role, put.added_at from put join accounts a on a.id = put.account_id`,
      [workspaceId, accountId, role, this.deps.clock.now()],
    );
    return memberView(rows[0]!);
  }

  async removeMember(caller: Caller, workspaceId: string, accountId: string): Promise<void> {
    const workspace = await loadWorkspace(this.deps.sql, workspaceId, caller);
    requireManage(workspace);
    if (accountId === workspace.owner_id) throw ownerImmutable();
    const { rowCount } = await this.deps.sql.query('delete from workspace_members where workspace_id = $1 and account_id = $2', [
      workspaceId,
      accountId,
    ]);
    if (!rowCount) throw partnerErrors.notFound('member_not_found', 'The member');
  }

  /** Built-in roles first, then custom roles by creation, each with its effective cells today. */
  async listRoles(caller: Caller, workspaceId: string): Promise<ListEnvelope<RoleView>> {
    await loadWorkspace(this.deps.sql, workspaceId, caller);
    const now = this.deps.clock.now();
    const [{ rows }, overrides] = await Promise.all([
      this.deps.sql.query<{ name: string }>('select name from workspace_roles where workspace_id = $1 order by created_at, name', [
        workspaceId,
      ]),
      cellOverrides(this.deps.sql, workspaceId),
    ]);
    const names = [...builtInRoles, ...rows.map((r) => r.name)];
    return listOf(names.map((name) => roleView(name, effectiveCells(name, overrides.get(name) ?? {}, now))));
  }

  async createRole(caller: Caller, workspaceId: string, name: string, cells?: Cells): Promise<RoleView> {
    requireManage(await loadWorkspace(this.deps.sql, workspaceId, caller));
    const roleExistsError = () =>
      partnerErrors.conflict('role_exists', `The role ${name} already exists in this workspace.`, { role: name });
    if (isBuiltInRole(name)) throw roleExistsError();
    const now = this.deps.clock.now();
    await inTransaction(this.deps.sql, async (client) => {
      const { rowCount } = await client.query(
        'insert into workspace_roles (workspace_id, name, created_at) values ($1, $2, $3) on conflict do nothing',
        [workspaceId, name, now],
      );
      if (!rowCount) throw roleExistsError();
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
