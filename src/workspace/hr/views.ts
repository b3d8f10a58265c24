import { sql, type ExpressionBuilder } from 'kysely';
import type { components } from '../../../generated/types/workspace.js';
import type { Partition } from '../../core/crm/records.js';
import { workspaceDb, type WorkspaceTables } from '../base/tables.js';

type Schemas = components['schemas'];
export type EmployeeView = Schemas['Hr.Employee'];
export type AttendanceView = Schemas['Hr.Attendance'];
export type LeaveView = Schemas['Hr.Leave'];

// Dates are read as text: node-postgres would turn a date into a local-midnight Date.

/** The columns of an employee as the views read them; for select and returning alike. */
export const employeeColumns = (eb: ExpressionBuilder<WorkspaceTables, 'hr_employees'>) =>
  [
    'id',
    'name',
    'email',
    'job_title',
    'department',
    'account_id',
    'manager_id',
    eb.cast<string>('hire_date', 'text').as('hire_date'),
    'status',
    eb.cast<string | null>('terminated_on', 'text').as('terminated_on'),
    'termination_reason',
    'created_at',
    'updated_at',
  ] as const;

export const attendanceColumns = ['id', 'employee_id', 'check_in', 'check_out', 'note', 'created_at', 'updated_at'] as const;

export const leaveColumns = (eb: ExpressionBuilder<WorkspaceTables, 'hr_leaves'>) =>
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

const employeeSelect = workspaceDb.selectFrom('hr_employees').select(employeeColumns);
const attendanceSelect = workspaceDb.selectFrom('hr_attendance').select(attendanceColumns);
const leaveSelect = workspaceDb.selectFrom('hr_leaves').select(leaveColumns);

/** One partition's rows of a table, with the views' columns: every read of hr starts here. */
export const employeesOf = (part: Partition) =>
  employeeSelect.where('workspace_id', '=', part.workspaceId).where('environment', '=', part.environment);
export const attendanceOf = (part: Partition) =>
  attendanceSelect.where('workspace_id', '=', part.workspaceId).where('environment', '=', part.environment);
export const leavesOf = (part: Partition) =>
  leaveSelect.where('workspace_id', '=', part.workspaceId).where('environment', '=', part.environment);

type RowOf<Q extends { executeTakeFirstOrThrow(): Promise<unknown> }> = Awaited<ReturnType<Q['executeTakeFirstOrThrow']>>;
export type EmployeeRow = RowOf<typeof employeeSelect>;
export type AttendanceRow = RowOf<typeof attendanceSelect>;
export type LeaveRow = RowOf<typeof leaveSelect>;

export function employeeView(r: EmployeeRow): EmployeeView {
  return {
    id: r.id,
    name: r.name,
    email: r.email,
    job_title: r.job_title,
    department: r.department,
    account_id: r.account_id,
    manager_id: r.manager_id,
    hire_date: r.hire_date,
    status: r.status as EmployeeView['status'],
    terminated_on: r.terminated_on,
    termination_reason: r.termination_reason,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  };
}

export function attendanceView(r: AttendanceRow): AttendanceView {
  return {
    id: r.id,
    employee_id: r.employee_id,
    check_in: r.check_in.toISOString(),
    check_out: r.check_out?.toISOString() ?? null,
    worked_minutes: r.check_out ? Math.floor((r.check_out.getTime() - r.check_in.getTime()) / 60_000) : null,
    note: r.note,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  };
}

export function leaveView(r: LeaveRow): LeaveView {
  return {
    id: r.id,
    employee_id: r.employee_id,
    type: r.type as LeaveView['type'],
    start_date: r.start_date,
    end_date: r.end_date,
    days: r.days,
    reason: r.reason,
    status: r.status as LeaveView['status'],
    decided_by: r.decided_by,
    decided_at: r.decided_at?.toISOString() ?? null,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  };
}
