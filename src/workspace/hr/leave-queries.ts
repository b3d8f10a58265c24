// The statements of leave requests: one partition's rows with the views' columns, the overlap probe, and the writes.
import { sql, type ExpressionBuilder } from 'kysely';
import type { Partition } from '../../core/crm/queries.js';
import { affected, firstRow, rows, type Runner } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import type { Position } from '../base/paging.js';
import { workspaceDb, type WorkspaceTables } from '../base/tables.js';

// Dates are read as text: node-postgres would turn a date into a local-midnight Date.
const leaveColumns = (eb: ExpressionBuilder<WorkspaceTables, 'hr_leaves'>) =>
  [
    'id',
    'employee_id',
    'type',
    eb.cast<string>('start_date', 'text').as('start_date'),
    eb.cast<string>('end_date', 'text').as('end_date'),
    sql<number>`(end_date - start_date + 1)`.as('days'),
    'reason',
    'status',
    'decided_by',
    'decided_at',
    'created_at',
    'updated_at',
  ] as const;

const leaveSelect = workspaceDb.selectFrom('hr_leaves').select(leaveColumns);

export type LeaveRow = Awaited<ReturnType<(typeof leaveSelect)['executeTakeFirstOrThrow']>>;

/** One partition's leaves with the views' columns: every read of a leave starts here. */
const leavesOf = (part: Partition) => leaveSelect.where('workspace_id', '=', part.workspaceId).where('environment', '=', part.environment);

export interface LeaveFilter {
  employeeId?: string;
  status?: string;
  type?: string;
}

/** A page of the partition's leaves matching the filter after a position, newest first. */
export function leavePage(
  db: Runner,
  part: Partition,
  filter: LeaveFilter,
  after: Position | undefined,
  limit: number,
): Promise<LeaveRow[]> {
  return rows(
    db,
    leavesOf(part)
      .$if(filter.employeeId !== undefined, (qb) => qb.where('employee_id', '=', filter.employeeId!))
      .$if(filter.status !== undefined, (qb) => qb.where('status', '=', filter.status!))
      .$if(filter.type !== undefined, (qb) => qb.where('type', '=', filter.type!))
      .$if(after !== undefined, (qb) => qb.where('id', '<', after!.id))
      .orderBy('id', 'desc')
      .limit(limit),
  );
}

export function leaveById(db: Runner, part: Partition, id: string): Promise<LeaveRow | undefined> {
  return firstRow(db, leavesOf(part).where('id', '=', id));
}

/** The leave, its row locked for the transaction. */
export function lockLeave(db: Runner, part: Partition, id: string): Promise<LeaveRow | undefined> {
  return firstRow(db, leavesOf(part).where('id', '=', id).forUpdate());
}

/** True when the employee has a requested or approved leave overlapping [start, end]. */
export async function leaveOverlaps(db: Runner, employeeId: string, start: string, end: string): Promise<boolean> {
  const overlaps = await affected(
    db,
    workspaceDb
      .selectFrom('hr_leaves')
      .select('id')
      .where('employee_id', '=', employeeId)
      .where('status', 'in', ['requested', 'approved'])
      .where('start_date', '<=', end)
      .where('end_date', '>=', start)
      .limit(1),
  );
  return overlaps > 0;
}

export interface NewLeave {
  id: string;
  employeeId: string;
  type: string;
  start: string;
  end: string;
  reason: string | null;
  at: Date;
}

export async function insertLeave(db: Runner, part: Partition, leave: NewLeave): Promise<LeaveRow> {
  const [row] = await rows(
    db,
    workspaceDb
      .insertInto('hr_leaves')
      .values({
        id: leave.id,
        workspace_id: part.workspaceId,
        environment: part.environment,
        employee_id: leave.employeeId,
        type: leave.type,
        start_date: leave.start,
        end_date: leave.end,
        reason: leave.reason,
        status: 'requested',
        created_at: leave.at,
        updated_at: leave.at,
      })
      .returning(leaveColumns),
  );
  return row!;
}

export async function decideLeave(db: Runner, id: string, status: string, decidedBy: string | null, at: Date): Promise<LeaveRow> {
  const [row] = await rows(
    db,
    workspaceDb
      .updateTable('hr_leaves')
      .set({ status, decided_by: decidedBy, decided_at: at, updated_at: at })
      .where('id', '=', id)
      .returning(leaveColumns),
  );
  return row!;
}

const part: Partition = { workspaceId: example.id, environment: 'live' };

export const examples: QueryExamples = {
  leavePage: (db) => leavePage(db, part, { employeeId: example.otherId, status: 'requested', type: 'annual' }, { id: example.otherId }, 51),
  leaveById: (db) => leaveById(db, part, example.otherId),
  lockLeave: (db) => lockLeave(db, part, example.otherId),
  leaveOverlaps: (db) => leaveOverlaps(db, example.otherId, '2026-01-01', '2026-01-05'),
  insertLeave: (db) =>
    insertLeave(db, part, {
      id: example.otherId,
      employeeId: example.id,
      type: 'annual',
      start: '2026-01-01',
      end: '2026-01-05',
      reason: null,
      at: example.at,
    }),
  decideLeave: (db) => decideLeave(db, example.otherId, 'approved', example.id, example.at),
};
