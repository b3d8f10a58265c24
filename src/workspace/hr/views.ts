import type { components } from '../../../generated/types/workspace.js';

type Schemas = components['schemas'];
export type EmployeeView = Schemas['Hr.Employee'];
export type AttendanceView = Schemas['Hr.Attendance'];
export type LeaveView = Schemas['Hr.Leave'];

// Dates are read as text: node-postgres would turn a date into a local-midnight Date.

export interface EmployeeRow {
  id: string;
  name: string;
  email: string | null;
  job_title: string | null;
  department: string | null;
  account_id: string | null;
  manager_id: string | null;
  hire_date: string;
  status: string;
  terminated_on: string | null;
  termination_reason: string | null;
  created_at: Date;
  updated_at: Date;
}

export const employeeColumns =
  'id, name, email, job_title, department, account_id, manager_id, hire_date::text as hire_date, status, terminated_on::text as terminated_on, termination_reason, created_at, updated_at';

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

export interface AttendanceRow {
  id: string;
  employee_id: string;
  check_in: Date;
  check_out: Date | null;
  note: string | null;
  created_at: Date;
  updated_at: Date;
}

export const attendanceColumns = 'id, employee_id, check_in, check_out, note, created_at, updated_at';

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

export interface LeaveRow {
  id: string;
  employee_id: string;
  type: string;
  start_date: string;
  end_date: string;
  days: number;
  reason: string | null;
  status: string;
  decided_by: string | null;
  decided_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export const leaveColumns =
  'id, employee_id, type, start_date::text as start_date, end_date::text as end_date, (end_date - start_date + 1) as days, reason, status, decided_by, decided_at, created_at, updated_at';

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
