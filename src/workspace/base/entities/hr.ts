// The tables workspace/hr owns, as the migrations create them; the schema check holds the two together.
import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { reference } from '../../../platform/db/reference.js';

export const HrEmployeeEntity = defineEntity({
  name: 'HrEmployee',
  tableName: 'hr_employees',
  properties: {
    id: p.uuid().primary(),
    workspaceId: reference(p.uuid().fieldName('workspace_id'), 'Workspace', 'hr_employees_workspace_id_fkey'),
    environment: p.text(),
    name: p.text(),
    email: p.text().nullable(),
    jobTitle: p.text().fieldName('job_title').nullable(),
    department: p.text().nullable(),
    accountId: p.uuid().fieldName('account_id').nullable(),
    managerId: reference(p.uuid().fieldName('manager_id').nullable(), 'HrEmployee', 'hr_employees_manager_id_fkey'),
    hireDate: p.date().fieldName('hire_date'),
    status: p.text(),
    terminatedOn: p.date().fieldName('terminated_on').nullable(),
    terminationReason: p.text().fieldName('termination_reason').nullable(),
    createdAt: p.datetime().fieldName('created_at'),
    updatedAt: p.datetime().fieldName('updated_at'),
  },
  // Indexes given as DDL, which MikroORM matches by name only; the schema check compares it with the catalogue's text:
  // - descending columns: MikroORM reads DESC back as ASC when the name ends an earlier column's (id after room_id)
  indexes: [
    {
      name: 'hr_employees_list',
      expression: 'CREATE INDEX hr_employees_list ON hr_employees USING btree (workspace_id, environment, id DESC)',
    },
  ],
  uniques: [
    {
      name: 'hr_employees_account',
      properties: ['workspaceId', 'environment', 'accountId'],
      where: "((account_id IS NOT NULL) AND (status = 'active'::text))",
    },
  ],
  checks: [
    {
      name: 'hr_employees_environment_check',
      expression: "((environment = ANY (ARRAY['live'::text, 'test'::text])))",
    },
    {
      name: 'hr_employees_status_check',
      expression: "((status = ANY (ARRAY['active'::text, 'terminated'::text])))",
    },
  ],
});
export type HrEmployee = InferEntity<typeof HrEmployeeEntity>;

export const HrAttendanceEntity = defineEntity({
  name: 'HrAttendance',
  tableName: 'hr_attendance',
  properties: {
    id: p.uuid().primary(),
    workspaceId: reference(p.uuid().fieldName('workspace_id'), 'Workspace', 'hr_attendance_workspace_id_fkey'),
    environment: p.text(),
    employeeId: reference(p.uuid().fieldName('employee_id'), 'HrEmployee', 'hr_attendance_employee_id_fkey'),
    checkIn: p.datetime().fieldName('check_in'),
    checkOut: p.datetime().fieldName('check_out').nullable(),
    note: p.text().nullable(),
    createdAt: p.datetime().fieldName('created_at'),
    updatedAt: p.datetime().fieldName('updated_at'),
  },
  // Indexes given as DDL, which MikroORM matches by name only; the schema check compares it with the catalogue's text:
  // - descending columns: MikroORM reads DESC back as ASC when the name ends an earlier column's (id after room_id)
  indexes: [
    {
      name: 'hr_attendance_list',
      expression: 'CREATE INDEX hr_attendance_list ON hr_attendance USING btree (workspace_id, environment, check_in DESC, id DESC)',
    },
  ],
  uniques: [{ name: 'hr_attendance_open', properties: ['employeeId'], where: '(check_out IS NULL)' }],
  checks: [
    {
      name: 'hr_attendance_environment_check',
      expression: "((environment = ANY (ARRAY['live'::text, 'test'::text])))",
    },
    { name: 'hr_attendance_check', expression: '((check_out > check_in))' },
  ],
});
export type HrAttendance = InferEntity<typeof HrAttendanceEntity>;

export const HrLeaveEntity = defineEntity({
  name: 'HrLeave',
  tableName: 'hr_leaves',
  properties: {
    id: p.uuid().primary(),
    workspaceId: reference(p.uuid().fieldName('workspace_id'), 'Workspace', 'hr_leaves_workspace_id_fkey'),
    environment: p.text(),
    employeeId: reference(p.uuid().fieldName('employee_id'), 'HrEmployee', 'hr_leaves_employee_id_fkey'),
    type: p.text(),
    startDate: p.date().fieldName('start_date'),
    endDate: p.date().fieldName('end_date'),
    reason: p.text().nullable(),
    status: p.text(),
    decidedBy: p.uuid().fieldName('decided_by').nullable(),
    decidedAt: p.datetime().fieldName('decided_at').nullable(),
    createdAt: p.datetime().fieldName('created_at'),
    updatedAt: p.datetime().fieldName('updated_at'),
  },
  // Indexes given as DDL, which MikroORM matches by name only; the schema check compares it with the catalogue's text:
  // - descending columns: MikroORM reads DESC back as ASC when the name ends an earlier column's (id after room_id)
  indexes: [
    {
      name: 'hr_leaves_list',
      expression: 'CREATE INDEX hr_leaves_list ON hr_leaves USING btree (workspace_id, environment, id DESC)',
    },
    { name: 'hr_leaves_employee', properties: ['employeeId', 'startDate'] },
  ],
  checks: [
    {
      name: 'hr_leaves_environment_check',
      expression: "((environment = ANY (ARRAY['live'::text, 'test'::text])))",
    },
    { name: 'hr_leaves_check', expression: '((end_date >= start_date))' },
    {
      name: 'hr_leaves_status_check',
      expression: "((status = ANY (ARRAY['requested'::text, 'approved'::text, 'rejected'::text])))",
    },
  ],
});
export type HrLeave = InferEntity<typeof HrLeaveEntity>;
