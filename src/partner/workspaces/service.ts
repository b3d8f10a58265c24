// Workspace administration: workspaces and their plan, members and roles with their API Keys cells.
import type { Caller } from '../../core/auth/caller.js';
import { inTransaction } from '../../platform/db/sql.js';
import { boundList, cursorInstant, cursorUuid, decodeCursor, encodeCursor } from '../../platform/http/cursor.js';
import { newId } from '../../platform/ids.js';
import type { PartnerDeps } from '../base/deps.js';
import { partnerErrors } from '../base/errors.js';
import { cellOverrides, cellsOf, loadWorkspace, requireManage, roleExists, workspaceNotFound } from './access.js';
import { builtInRoles, effectiveCells, isBuiltInRole, lockedRoles, type Cells } from './permissions.js';
import { defaultPlan, planById } from './plans.js';
import {
  activeAccountExists,
  customRoleExists,
  customRoleNames,
  deleteMember,
  insertMember,
  insertRole,
  insertWorkspace,
  memberPage,
  setWorkspacePlan,
  upsertMember,
  upsertRoleCells,
  workspacePage,
  type TimePosition,
} from './queries.js';
import { listOf, memberView, roleView, workspaceView, type ListEnvelope } from './views.js';

export interface PageQuery {
  limit?: number;
  cursor?: string;
}

type WorkspaceView = ReturnType<typeof workspaceView>;
type MemberView = ReturnType<typeof memberView>;
type RoleView = ReturnType<typeof roleView>;

/** A keyset cursor of (timestamp, id) of that list; anything else is bad input. */
function parseCursor(list: string, raw: string): TimePosition {
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
      await insertWorkspace(client, { id, name, plan: defaultPlan, ownerId: caller.accountId, at: now });
      await insertMember(client, id, caller.accountId, 'owner', now);
    });
    return workspaceView({ id, name, plan: defaultPlan, owner_id: caller.accountId, created_at: now, my_role: 'owner' });
  }

  /** The caller's workspaces, newest first. */
  async list(caller: Caller, query: PageQuery): Promise<ListEnvelope<WorkspaceView>> {
    const limit = query.limit ?? 50;
    // The caller's own list: a cursor of another account's list is refused.
    const list = boundList('workspaces', [caller.accountId]);
    const c = query.cursor === undefined ? undefined : parseCursor(list, query.cursor);
    const found = await workspacePage(this.deps.sql, caller.accountId, c, limit + 1);
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
    const updated = await setWorkspacePlan(this.deps.sql, workspaceId, plan, this.deps.clock.now());
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
    const found = await memberPage(this.deps.sql, workspaceId, c, limit + 1);
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
    const scope = { moduleCode: caller.moduleCode, customerAccountId: caller.customerAccountId };
    if (!(await activeAccountExists(this.deps.sql, accountId, scope))) throw partnerErrors.notFound('account_not_found', 'The account');
    const member = await upsertMember(this.deps.sql, workspaceId, accountId, role, this.deps.clock.now());
    return memberView(member);
  }

  async removeMember(caller: Caller, workspaceId: string, accountId: string): Promise<void> {
    const workspace = await loadWorkspace(this.deps.sql, workspaceId, caller);
    requireManage(workspace);
    if (accountId === workspace.owner_id) throw ownerImmutable();
    const removed = await deleteMember(this.deps.sql, workspaceId, accountId);
    if (!removed) throw partnerErrors.notFound('member_not_found', 'The member');
  }

  /** Built-in roles first, then custom roles by creation, each with its effective cells today. */
  async listRoles(caller: Caller, workspaceId: string): Promise<ListEnvelope<RoleView>> {
    await loadWorkspace(this.deps.sql, workspaceId, caller);
    const now = this.deps.clock.now();
    const [custom, overrides] = await Promise.all([customRoleNames(this.deps.sql, workspaceId), cellOverrides(this.deps.sql, workspaceId)]);
    const names = [...builtInRoles, ...custom];
    return listOf(names.map((name) => roleView(name, effectiveCells(name, overrides.get(name) ?? {}, now))));
  }

  async createRole(caller: Caller, workspaceId: string, name: string, cells?: Cells): Promise<RoleView> {
    requireManage(await loadWorkspace(this.deps.sql, workspaceId, caller));
    const roleExistsError = () =>
      partnerErrors.conflict('role_exists', `The role ${name} already exists in this workspace.`, { role: name });
    if (isBuiltInRole(name)) throw roleExistsError();
    const now = this.deps.clock.now();
    await inTransaction(this.deps.sql, async (client) => {
      if (!(await insertRole(client, workspaceId, name, now))) throw roleExistsError();
      if (cells) await upsertRoleCells(client, workspaceId, name, cells, now);
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
    await upsertRoleCells(this.deps.sql, workspaceId, role, cells, now);
    return roleView(role, await cellsOf(this.deps.sql, workspaceId, role, now));
  }
}
