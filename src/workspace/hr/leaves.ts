// Leave requests: made for an active employee (leave.requested), then approved (leave.approved) or rejected. A
// request may not overlap another requested or approved leave of the employee.
import { readPool } from '../../platform/db/read-router.js';
import type { Partition } from '../../core/crm/queries.js';
import { newId } from '../../platform/ids.js';
import { checkMembers, daysBetween, dateOf } from '../base/checks.js';
import { defaultLimit, listIn, pageOf, readCursor } from '../base/paging.js';
import { changesOf } from '../../core/events/changes.js';
import { withEvents, type EventDeps } from '../../core/events/outbox.js';
import { workspaceErrors } from '../base/errors.js';
import type { Page } from '../base/paging.js';
import { activeEmployee } from './employees.js';
import { decideLeave, insertLeave, leaveById, leaveOverlaps, leavePage, lockLeave } from './leave-queries.js';
import { leaveView, type LeaveView } from './views.js';

export const leavesPath = '/api/v1/leaves';
const notFound = () => workspaceErrors.notFound('The leave request');
const maxDays = 366;

export class LeaveService {
  constructor(private readonly deps: EventDeps) {}

  async list(
    part: Partition,
    query: { limit?: number; cursor?: string; employee_id?: string; status?: string; type?: string },
  ): Promise<Page<LeaveView>> {
    const db = await readPool(this.deps);
    const limit = query.limit ?? defaultLimit;
    const list = listIn(part, 'leaves', query);
    const after = readCursor(list, query.cursor);
    const filter = { employeeId: query.employee_id, status: query.status, type: query.type };
    const found = await leavePage(db, part, filter, after, limit + 1);
    return pageOf(found, limit, list, leaveView);
  }

  async get(part: Partition, id: string): Promise<LeaveView> {
    const db = await readPool(this.deps);
    const row = await leaveById(db, part, id);
    if (!row) throw notFound();
    return leaveView(row);
  }

  async create(
    part: Partition,
    body: { employee_id: string; type: string; start_date: string; end_date: string; reason?: string | null },
  ): Promise<LeaveView> {
    const start = dateOf('body.start_date', body.start_date);
    const end = dateOf('body.end_date', body.end_date);
    if (end < start) throw workspaceErrors.invalid('body.end_date', 'is before start_date');
    if (daysBetween(start, end) > maxDays) throw workspaceErrors.invalid('body.end_date', `is more than ${maxDays} days after start_date`);
    return withEvents(this.deps, this.deps.sql, part, async (tx, sink, now) => {
      // Locking the employee serialises the overlap check of concurrent requests.
      await activeEmployee(tx, part, 'body.employee_id', body.employee_id);
      if (await leaveOverlaps(tx, body.employee_id, start, end))
        throw workspaceErrors.conflict('The dates overlap another requested or approved leave of the employee.');
      const row = await insertLeave(tx, part, {
        id: newId(),
        employeeId: body.employee_id,
        type: body.type,
        start,
        end,
        reason: body.reason ?? null,
        at: now,
      });
      const view = leaveView(row);
      sink.emit('leave.requested', view);
      return view;
    });
  }

  /** Approves (leave.approved) or rejects (no event in the catalogue) a requested leave; a repeat is answered unchanged. */
  async decide(part: Partition, id: string, to: 'approved' | 'rejected', decidedBy: string | null | undefined): Promise<LeaveView> {
    return withEvents(this.deps, this.deps.sql, part, async (tx, sink, now) => {
      const before = await lockLeave(tx, part, id);
      if (!before) throw notFound();
      if (before.status === to) return leaveView(before);
      if (before.status !== 'requested')
        throw workspaceErrors.conflict(`The leave is ${before.status}; only a requested leave can be ${to}.`);
      await checkMembers(tx, part.workspaceId, [{ field: 'body.decided_by', id: decidedBy }]);
      if (to === 'approved') await activeEmployee(tx, part, 'employee_id', before.employee_id);
      const row = await decideLeave(tx, id, to, decidedBy ?? null, now);
      const view = leaveView(row);
      if (to === 'approved') sink.emit('leave.approved', view, changesOf(leaveView(before), view, ['status', 'decided_by', 'decided_at']));
      return view;
    });
  }
}
