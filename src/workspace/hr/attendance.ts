// Attendance: check-ins of active employees and their check-outs. An employee's records never overlap, so at most
// one is open (checked in, not out); times are never in the future. The catalogue has no attendance event.
import { readPool } from '../../platform/db/read-router.js';
import type { Partition } from '../../core/crm/queries.js';
import type { Runner } from '../../platform/db/typed.js';
import { newId } from '../../platform/ids.js';
import { instantOf, uniqueOr409 } from '../base/checks.js';
import { defaultLimit, listIn, pageOf, readCursor } from '../base/paging.js';
import { withEvents, type EventDeps } from '../../core/events/outbox.js';
import { workspaceErrors } from '../base/errors.js';
import type { Page } from '../base/paging.js';
import { activeEmployee } from './employees.js';
import {
  attendanceById,
  attendanceOverlaps,
  attendancePage,
  insertAttendance,
  lockAttendance,
  lockEmployeeById,
  updateAttendance,
} from './attendance-queries.js';
import { attendanceView, type AttendanceView } from './views.js';

export const attendancePath = '/api/v1/attendance';
const notFound = () => workspaceErrors.notFound('The attendance record');
const overlapping = 'The times overlap another attendance record of the employee (or it is still checked in).';

/** 409 when [checkIn, checkOut) (open-ended when checkOut is null) overlaps another record of the employee. */
async function checkNoOverlap(db: Runner, employeeId: string, checkIn: Date, checkOut: Date | null, except?: string): Promise<void> {
  if (await attendanceOverlaps(db, employeeId, checkIn, checkOut, except)) throw workspaceErrors.conflict(overlapping);
}

function notFuture(field: string, at: Date, now: Date): void {
  if (at.getTime() > now.getTime()) throw workspaceErrors.invalid(field, 'is in the future');
}

export class AttendanceService {
  constructor(private readonly deps: EventDeps) {}

  async list(
    part: Partition,
    query: { limit?: number; cursor?: string; employee_id?: string; from?: string; to?: string; open?: boolean },
  ): Promise<Page<AttendanceView>> {
    const db = await readPool(this.deps);
    const limit = query.limit ?? defaultLimit;
    const list = listIn(part, 'attendance', query);
    const after = readCursor(list, query.cursor, true);
    const from = query.from !== undefined ? instantOf('query.from', query.from) : undefined;
    const to = query.to !== undefined ? instantOf('query.to', query.to) : undefined;
    const filter = { employeeId: query.employee_id, from, to, open: query.open };
    const found = await attendancePage(db, part, filter, after, limit + 1);
    return pageOf(found, limit, list, attendanceView, (r) => r.check_in);
  }

  async get(part: Partition, id: string): Promise<AttendanceView> {
    const db = await readPool(this.deps);
    const row = await attendanceById(db, part, id);
    if (!row) throw notFound();
    return attendanceView(row);
  }

  async create(
    part: Partition,
    body: { employee_id: string; check_in?: string; check_out?: string | null; note?: string | null },
  ): Promise<AttendanceView> {
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
      const row = await uniqueOr409(
        () =>
          insertAttendance(tx, part, {
            id: newId(),
            employeeId: body.employee_id,
            checkIn,
            checkOut,
            note: body.note ?? null,
            at: now,
          }),
        overlapping,
      );
      return attendanceView(row);
    });
  }

  async update(part: Partition, id: string, body: { check_out?: string | null; note?: string | null }): Promise<AttendanceView> {
    const now = this.deps.clock.now();
    const checkOut = typeof body.check_out === 'string' ? instantOf('body.check_out', body.check_out) : body.check_out;
    if (checkOut) notFuture('body.check_out', checkOut, now);
    return withEvents(this.deps, this.deps.sql, part, async (tx) => {
      const before = await lockAttendance(tx, part, id);
      if (!before) throw notFound();
      const nextOut = checkOut === undefined ? before.check_out : checkOut;
      const nextNote = body.note === undefined ? before.note : body.note;
      if (nextOut && nextOut <= before.check_in) throw workspaceErrors.invalid('body.check_out', 'must be after check_in');
      if ((nextOut?.getTime() ?? null) === (before.check_out?.getTime() ?? null) && nextNote === before.note) return attendanceView(before);
      await lockEmployeeById(tx, before.employee_id);
      await checkNoOverlap(tx, before.employee_id, before.check_in, nextOut, id);
      const row = await uniqueOr409(() => updateAttendance(tx, id, nextOut, nextNote, now), overlapping);
      return attendanceView(row);
    });
  }
}
