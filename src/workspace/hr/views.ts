// The wire form of employees, attendance records and leaves, from the rows their statements read.
import type { components } from '../../../generated/types/workspace.js';
import type { AttendanceRow } from './attendance-queries.js';
import type { EmployeeRow } from './employee-queries.js';
import type { LeaveRow } from './leave-queries.js';

type Schemas = components['schemas'];
export type EmployeeView = Schemas['Hr.Employee'];
export type AttendanceView = Schemas['Hr.Attendance'];
export type LeaveView = Schemas['Hr.Leave'];

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
