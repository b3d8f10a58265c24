// Attendance: check-ins of active employees and their check-outs. An employee's records never overlap, so at most
// one is open (checked in, not out); times are never in the future. The catalogue has no attendance event.
import { readPool } from '../../platform/db/read-router.js';
import type { Partition } from '../../core/crm/records.js';
import type { Queryable } from '../../platform/db/queryable.js';
import { newId } from '../../platform/ids.js';
import { instantOf, uniqueOr409 } from '../common/checks.js';
import { Filters } from '../../platform/db/filters.js';
import { defaultLimit, pageOf, readCursor } from '../common/paging.js';
import { withEvents, type EventDeps } from '../../core/events/outbox.js';
import { workspaceErrors } from '../errors.js';
import type { Page } from '../keys/service.js';
import { activeEmployee } from './employees.js';
import { attendanceColumns, attendanceView, type AttendanceRow, type AttendanceView } from './views.js';

export const attendancePath = '/api/v1/attendance';
const notFound = () => workspaceErrors.notFound('The attendance record');
const overlapping = 'The times overlap another attendance record of the employee (or it is still checked in).';

/** 409 when [checkIn, checkOut) (open-ended when checkOut is null) overlaps another record of the employee. */
async function checkNoOverlap(db: Queryable, employeeId: string, checkIn: Date, checkOut: Date | null, except?: string): Promise<void> {
  const { rowCount } = await db.query(
    `select 1 from hr_attendance
      where employee_id = $1 and id <> coalesce($4::uuid, '00000000-0000-0000-0000-000000000000')
        and check_in < coalesce($3::timestamptz, 'infinity') and coalesce(check_out, 'infinity') > $2 limit 1`,
    [employeeId, checkIn, checkOut, except ?? null],
  );
  if (rowCount) throw workspaceErrors.conflict(overlapping);
}

function notFuture(field: string, at: Date, now: Date): void {
  if (at.getTime() > now.getTime()) throw workspaceErrors.invalid(field, 'is in the future');
}

export class AttendanceService {
  constructor(private readonly deps: EventDeps) {}

  async list(part: Partition, query: { limit?: number; cursor?: string; employee_id?: string; from?: string; to?: string; open?: boolean }): Promise<Page<AttendanceView>> {
    const db = await readPool(this.deps);
    const limit = query.limit ?? defaultLimit;
    const after = readCursor('attendance', query.cursor, true);
    const where = new Filters([part.workspaceId, part.environment])
      .eq('employee_id', query.employee_id)
      .raw('check_in >= $?', query.from !== undefined ? instantOf('query.from', query.from) : undefined)
      .raw('check_in < $?', query.to !== undefined ? instantOf('query.to', query.to) : undefined)
      .when(query.open === true, 'check_out is null')
      .when(query.open === false, 'check_out is not null');
    if (after) where.clauses.push(`(check_in, id) < (${where.push(after.at)}::timestamptz, ${where.push(after.id)}::uuid)`);
    const { rows } = await db.query<AttendanceRow>(
      `select ${attendanceColumns} from hr_attendance where workspace_id = $1 and environment = $2${where.sql()} order by check_in desc, id desc limit ${where.push(limit + 1)}`,
      where.params,
    );
    return pageOf(rows, limit, 'attendance', attendanceView, (r) => r.check_in);
  }

  async get(part: Partition, id: string): Promise<AttendanceView> {
    const db = await readPool(this.deps);
    const { rows } = await db.query<AttendanceRow>(`select ${attendanceColumns} from hr_attendance where id = $1 and workspace_id = $2 and environment = $3`, [
      id,
      part.workspaceId,
      part.environment,
    ]);
    if (!rows[0]) throw notFound();
    return attendanceView(rows[0]);
  }

  async create(part: Partition, body: { employee_id: string; check_in?: string; check_out?: string | null; note?: string | null }): Promise<AttendanceView> {
    const now = this.deps.clock.now();
    const checkIn = body.check_in !== undefined ? instantOf('body.check_in', body.check_in) : now;
    const checkOut = body.check_out != null ? instantOf('body.check_out', body.check_out) : null;
    notFuture('body.check_in', checkIn, now);
    if (checkOut) {
      notFuture('body.check_out', checkOut, now);
      if (checkOut <= checkIn) throw workspaceErrors.invalid('body.check_out', 'must be after check_in');
    }
    return withEvents(this.deps, this.deps.sql, part, async (tx) => {
      // Locking the employee serialises the overlap check of concurrent check-ins.
      await activeEmployee(tx, part, 'body.employee_id', body.employee_id);
      await checkNoOverlap(tx, body.employee_id, checkIn, checkOut);
      const { rows } = await uniqueOr409(
        () =>
          tx.query<AttendanceRow>(
            `insert into hr_attendance (id, workspace_id, environment, employee_id, check_in, check_out, note, created_at, updated_at)
             values ($1, $2, $3, $4, $5, $6, $7, $8, $8) returning ${attendanceColumns}`,
            [newId(), part.workspaceId, part.environment, body.employee_id, checkIn, checkOut, body.note ?? null, now],
          ),
        overlapping,
      );
      return attendanceView(rows[0]!);
    });
  }

  async update(part: Partition, id: string, body: { check_out?: string | null; note?: string | null }): Promise<AttendanceView> {
    const now = this.deps.clock.now();
    const checkOut = typeof body.check_out === 'string' ? instantOf('body.check_out', body.check_out) : body.check_out;
    if (checkOut) notFuture('body.check_out', checkOut, now);
    return withEvents(this.deps, this.deps.sql, part, async (tx) => {
      const { rows: found } = await tx.query<AttendanceRow>(
        `select ${attendanceColumns} from hr_attendance where id = $1 and workspace_id = $2 and environment = $3 for update`,
        [id, part.workspaceId, part.environment],
      );
      const before = found[0];
      if (!before) throw notFound();
      const nextOut = checkOut === undefined ? before.check_out : checkOut;
      const nextNote = body.note === undefined ? before.note : body.note;
      if (nextOut && nextOut <= before.check_in) throw workspaceErrors.invalid('body.check_out', 'must be after check_in');
      if ((nextOut?.getTime() ?? null) === (before.check_out?.getTime() ?? null) && nextNote === before.note) return attendanceView(before);
      await tx.query('select 1 from hr_employees where id = $1 for update', [before.employee_id]);
      await checkNoOverlap(tx, before.employee_id, before.check_in, nextOut, id);
      const { rows } = await uniqueOr409(
        () => tx.query<AttendanceRow>(`update hr_attendance set check_out = $2, note = $3, updated_at = $4 where id = $1 returning ${attendanceColumns}`, [id, nextOut, nextNote, now]),
        overlapping,
      );
      return attendanceView(rows[0]!);
    });
  }
}
