// The statements of attendance: one partition's check-ins with the views' columns, the overlap probe, and the writes.
import { sql } from 'kysely';
import type { Partition } from '../../core/crm/queries.js';
import { affected, firstRow, rows, type Runner } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import type { Position } from '../base/paging.js';
import { workspaceDb } from '../base/tables.js';

const attendanceColumns = ['id', 'employee_id', 'check_in', 'check_out', 'note', 'created_at', 'updated_at'] as const;

const attendanceSelect = workspaceDb.selectFrom('hr_attendance').select(attendanceColumns);

export type AttendanceRow = Awaited<ReturnType<(typeof attendanceSelect)['executeTakeFirstOrThrow']>>;

/** One partition's records with the views' columns: every read of attendance starts here. */
const attendanceOf = (part: Partition) =>
  attendanceSelect.where('workspace_id', '=', part.workspaceId).where('environment', '=', part.environment);

/**
 * True when [checkIn, checkOut) (open-ended when checkOut is null) overlaps another record of the employee than
 * `except`.
 */
export async function attendanceOverlaps(
  db: Runner,
  employeeId: string,
  checkIn: Date,
  checkOut: Date | null,
  except?: string,
): Promise<boolean> {
  const overlaps = await affected(
    db,
    workspaceDb
      .selectFrom('hr_attendance')
      .select('id')
      .where('employee_id', '=', employeeId)
      .$if(except !== undefined, (qb) => qb.where('id', '<>', except!))
      // an open record (no check-out) runs to infinity
      .$if(checkOut !== null, (qb) => qb.where('check_in', '<', checkOut!))
      .where((eb) => eb.or([eb('check_out', 'is', null), eb('check_out', '>', checkIn)]))
      .limit(1),
  );
  return overlaps > 0;
}

export interface AttendanceFilter {
  employeeId?: string;
  from?: Date;
  to?: Date;
  open?: boolean;
}

/** A page of the partition's records matching the filter after a (check-in, id) position, latest check-in first. */
export function attendancePage(
  db: Runner,
  part: Partition,
  filter: AttendanceFilter,
  after: Position | undefined,
  limit: number,
): Promise<AttendanceRow[]> {
  return rows(
    db,
    attendanceOf(part)
      .$if(filter.employeeId !== undefined, (qb) => qb.where('employee_id', '=', filter.employeeId!))
      .$if(filter.from !== undefined, (qb) => qb.where('check_in', '>=', filter.from!))
      .$if(filter.to !== undefined, (qb) => qb.where('check_in', '<', filter.to!))
      .$if(filter.open === true, (qb) => qb.where('check_out', 'is', null))
      .$if(filter.open === false, (qb) => qb.where('check_out', 'is not', null))
      .$if(after !== undefined, (qb) =>
        qb.where((eb) =>
          eb(eb.refTuple('check_in', 'id'), '<', eb.tuple(sql<Date>`${after!.at}::timestamptz`, sql<string>`${after!.id}::uuid`)),
        ),
      )
      .orderBy('check_in', 'desc')
      .orderBy('id', 'desc')
      .limit(limit),
  );
}

export function attendanceById(db: Runner, part: Partition, id: string): Promise<AttendanceRow | undefined> {
  return firstRow(db, attendanceOf(part).where('id', '=', id));
}

/** The record, its row locked for the transaction. */
export function lockAttendance(db: Runner, part: Partition, id: string): Promise<AttendanceRow | undefined> {
  return firstRow(db, attendanceOf(part).where('id', '=', id).forUpdate());
}

/** Locks the employee's row (any partition's: the record already names it). */
export async function lockEmployeeById(db: Runner, employeeId: string): Promise<void> {
  await affected(db, workspaceDb.selectFrom('hr_employees').select('id').where('id', '=', employeeId).forUpdate());
}

export interface NewAttendance {
  id: string;
  employeeId: string;
  checkIn: Date;
  checkOut: Date | null;
  note: string | null;
  at: Date;
}

export async function insertAttendance(db: Runner, part: Partition, record: NewAttendance): Promise<AttendanceRow> {
  const [row] = await rows(
    db,
    workspaceDb
      .insertInto('hr_attendance')
      .values({
        id: record.id,
        workspace_id: part.workspaceId,
        environment: part.environment,
        employee_id: record.employeeId,
        check_in: record.checkIn,
        check_out: record.checkOut,
        note: record.note,
        created_at: record.at,
        updated_at: record.at,
      })
      .returning(attendanceColumns),
  );
  return row!;
}

export async function updateAttendance(
  db: Runner,
  id: string,
  checkOut: Date | null,
  note: string | null,
  at: Date,
): Promise<AttendanceRow> {
  const [row] = await rows(
    db,
    workspaceDb
      .updateTable('hr_attendance')
      .set({ check_out: checkOut, note, updated_at: at })
      .where('id', '=', id)
      .returning(attendanceColumns),
  );
  return row!;
}

const part: Partition = { workspaceId: example.id, environment: 'live' };

export const examples: QueryExamples = {
  attendanceOverlaps: (db) => attendanceOverlaps(db, example.id, example.at, example.at, example.otherId),
  attendancePage: (db) =>
    attendancePage(
      db,
      part,
      { employeeId: example.otherId, from: example.at, to: example.at, open: false },
      { id: example.otherId, at: example.at.toISOString() },
      51,
    ),
  attendanceById: (db) => attendanceById(db, part, example.otherId),
  lockAttendance: (db) => lockAttendance(db, part, example.otherId),
  lockEmployeeById: (db) => lockEmployeeById(db, example.otherId),
  insertAttendance: (db) =>
    insertAttendance(db, part, {
      id: example.otherId,
      employeeId: example.id,
      checkIn: example.at,
      checkOut: null,
      note: null,
      at: example.at,
    }),
  updateAttendance: (db) => updateAttendance(db, example.otherId, example.at, example.text, example.at),
};
