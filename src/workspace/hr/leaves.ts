// Leave requests: made for an active employee (leave.requested), then approved (leave.approved) or rejected. A
// request may not overlap another requested or approved leave of the employee.
import { readPool } from '../../platform/db/read-router.js';
import type { Partition } from '../../core/crm/records.js';
import { newId } from '../../platform/ids.js';
import { checkMembers, daysBetween, dateOf } from '../common/checks.js';
import { Filters } from '../../platform/db/filters.js';
import { defaultLimit, pageOf, readCursor } from '../common/paging.js';
import { changesOf } from '../../core/events/changes.js';
import { withEvents, type EventDeps } from '../../core/events/outbox.js';
import { workspaceErrors } from '../errors.js';
import type { Page } from '../keys/service.js';
import { activeEmployee } from './employees.js';
import { leaveColumns, leaveView, type LeaveRow, type LeaveView } from './views.js';

export const leavesPath = '/api/v1/leaves';
const notFound = () => workspaceErrors.notFound('The leave request');
const maxDays = 366;

export class LeaveService {
  constructor(private readonly deps: EventDeps) {}

  async list(part: Partition, query: { limit?: number; cursor?: string; employee_id?: string; status?: string; type?: string }): Promise<Page<LeaveView>> {
    const db = await readPool(this.deps);
    const limit = query.limit ?? defaultLimit;
    const after = readCursor('leaves', query.cursor);
    const where = new Filters([part.workspaceId, part.environment]).eq('employee_id', query.employee_id).eq('status', query.status).eq('type', query.type).raw('id < $?', after?.id);
    const { rows } = await db.query<LeaveRow>(
      `select ${leaveColumns} from hr_leaves where workspace_id = $1 and environment = $2${where.sql()} order by id desc limit ${where.push(limit + 1)}`,
      where.params,
    );
    return pageOf(rows, limit, 'leaves', leaveView);
  }

  async get(part: Partition, id: string): Promise<LeaveView> {
    const db = await readPool(this.deps);
    const { rows } = await db.query<LeaveRow>(`select ${leaveColumns} from hr_leaves where id = $1 and workspace_id = $2 and environment = $3`, [
      id,
      part.workspaceId,
      part.environment,
    ]);
    if (!rows[0]) throw notFound();
    return leaveView(rows[0]);
  }

  async create(part: Partition, body: { employee_id: string; type: string; start_date: string; end_date: string; reason?: string | null }): Promise<LeaveView> {
    const start = dateOf('body.start_date', body.start_date);
    const end = dateOf('body.end_date', body.end_date);
    if (end < start) throw workspaceErrors.invalid('body.end_date', 'is before start_date');
    if (daysBetween(start, end) > maxDays) throw workspaceErrors.invalid('body.end_date', `is more than ${maxDays} days after start_date`);
    return withEvents(this.deps, this.deps.sql, part, async (tx, sink, now) => {
      // Locking the employee serialises the overlap check of concurrent requests.
      await activeEmployee(tx, part, 'body.employee_id', body.employee_id);
      const { rowCount } = await tx.query(
        "select 1 from hr_leaves where employee_id = $1 and status in ('requested', 'approved') and start_date <= $3 and end_date >= $2 limit 1",
        [body.employee_id, start, end],
      );
      if (rowCount) throw workspaceErrors.conflict('The dates overlap another requested or approved leave of the employee.');
      const { rows } = await tx.query<LeaveRow>(
        `insert into hr_leaves (id, workspace_id, environment, employee_id, type, start_date, end_date, reason, status, created_at, updated_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8, 'requested', $9, $9) returning ${leaveColumns}`,
        [newId(), part.workspaceId, part.environment, body.employee_id, body.type, start, end, body.reason ?? null, now],
      );
      const view = leaveView(rows[0]!);
      sink.emit('leave.requested', view);
      return view;
    });
  }

  /** Approves (leave.approved) or rejects (no event in the catalogue) a requested leave; a repeat is answered unchanged. */
  async decide(part: Partition, id: string, to: 'approved' | 'rejected', decidedBy: string | null | undefined): Promise<LeaveView> {
    return withEvents(this.deps, this.deps.sql, part, async (tx, sink, now) => {
      const { rows: found } = await tx.query<LeaveRow>(`select ${leaveColumns} from hr_leaves where id = $1 and workspace_id = $2 and environment = $3 for update`, [
        id,
        part.workspaceId,
        part.environment,
      ]);
      const before = found[0];
      if (!before) throw notFound();
      if (before.status === to) return leaveView(before);
      if (before.status !== 'requested') throw workspaceErrors.conflict(`The leave is ${before.status}; only a requested leave can be ${to}.`);
      await checkMembers(tx, part.workspaceId, [{ field: 'body.decided_by', id: decidedBy }]);
      if (to === 'approved') await activeEmployee(tx, part, 'employee_id', before.employee_id);
      const { rows } = await tx.query<LeaveRow>(
        `update hr_leaves set status = $2, decided_by = $3, decided_at = $4, updated_at = $4 where id = $1 returning ${leaveColumns}`,
        [id, to, decidedBy ?? null, now],
      );
      const view = leaveView(rows[0]!);
      if (to === 'approved') sink.emit('leave.approved', view, changesOf(leaveView(before), view, ['status', 'decided_by', 'decided_at']));
      return view;
    });
  }
}
