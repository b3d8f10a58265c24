// The statements of employees: one partition's rows with the views' columns, and the writes of hiring, changing and
// terminating (which ends an open check-in).
import { sql, type ExpressionBuilder } from 'kysely';
import type { Partition } from '../../core/crm/queries.js';
import { affected, firstRow, rows, type Runner } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import type { Position } from '../base/paging.js';
import { workspaceDb, type WorkspaceTables } from '../base/tables.js';

// Dates are read as text: node-postgres would turn a date into a local-midnight Date.

/** The columns of an employee as the views read them; for select and returning alike. */
const employeeColumns = (eb: ExpressionBuilder<WorkspaceTables, 'hr_employees'>) =>
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

const employeeSelect = workspaceDb.selectFrom('hr_employees').select(employeeColumns);

export type EmployeeRow = Awaited<ReturnType<(typeof employeeSelect)['executeTakeFirstOrThrow']>>;

/** One partition's employees with the views' columns: every read of an employee starts here. */
const employeesOf = (part: Partition) =>
  employeeSelect.where('workspace_id', '=', part.workspaceId).where('environment', '=', part.environment);

export function employeeById(db: Runner, part: Partition, id: string): Promise<EmployeeRow | undefined> {
  return firstRow(db, employeesOf(part).where('id', '=', id));
}

/** The employee, its row locked for the transaction. */
export function lockEmployeeRow(db: Runner, part: Partition, id: string): Promise<EmployeeRow | undefined> {
  return firstRow(db, employeesOf(part).where('id', '=', id).forUpdate());
}

/** True when the account is an active employee of the partition. */
export async function accountEmployed(db: Runner, part: Partition, accountId: string): Promise<boolean> {
  return (await affected(db, employeesOf(part).where('account_id', '=', accountId).where('status', '=', 'active'))) > 0;
}

export interface EmployeeFilter {
  status?: string;
  department?: string;
  managerId?: string;
}

/** A page of the partition's employees matching the filter after a position, newest first. */
export function employeePage(
  db: Runner,
  part: Partition,
  filter: EmployeeFilter,
  after: Position | undefined,
  limit: number,
): Promise<EmployeeRow[]> {
  return rows(
    db,
    employeesOf(part)
      .$if(filter.status !== undefined, (qb) => qb.where('status', '=', filter.status!))
      .$if(filter.department !== undefined, (qb) => qb.where('department', '=', filter.department!))
      .$if(filter.managerId !== undefined, (qb) => qb.where('manager_id', '=', filter.managerId!))
      .$if(after !== undefined, (qb) => qb.where('id', '<', after!.id))
      .orderBy('id', 'desc')
      .limit(limit),
  );
}

export interface NewEmployee {
  id: string;
  name: string;
  email: string | null;
  jobTitle: string | null;
  department: string | null;
  accountId: string | null;
  managerId: string | null;
  hireDate: string;
  at: Date;
}

export async function insertEmployee(db: Runner, part: Partition, employee: NewEmployee): Promise<EmployeeRow> {
  const [row] = await rows(
    db,
    workspaceDb
      .insertInto('hr_employees')
      .values({
        id: employee.id,
        workspace_id: part.workspaceId,
        environment: part.environment,
        name: employee.name,
        email: employee.email,
        job_title: employee.jobTitle,
        department: employee.department,
        account_id: employee.accountId,
        manager_id: employee.managerId,
        hire_date: employee.hireDate,
        status: 'active',
        created_at: employee.at,
        updated_at: employee.at,
      })
      .returning(employeeColumns),
  );
  return row!;
}

/** The changed fields of an employee by column name (name, email, job_title, department, manager_id). */
export type EmployeeChanges = Record<string, string | null | undefined>;

export async function updateEmployee(db: Runner, id: string, changes: EmployeeChanges, at: Date): Promise<EmployeeRow> {
  const [row] = await rows(
    db,
    workspaceDb
      .updateTable('hr_employees')
      .set({ ...changes, updated_at: at })
      .where('id', '=', id)
      .returning(employeeColumns),
  );
  return row!;
}

export async function terminateEmployee(db: Runner, id: string, on: string, reason: string | null, at: Date): Promise<EmployeeRow> {
  const [row] = await rows(
    db,
    workspaceDb
      .updateTable('hr_employees')
      .set({ status: 'terminated', terminated_on: on, termination_reason: reason, updated_at: at })
      .where('id', '=', id)
      .returning(employeeColumns),
  );
  return row!;
}

/** Checks the employee out of an open check-in at `at` (at least a millisecond after the check-in). */
export async function closeOpenAttendance(db: Runner, employeeId: string, at: Date): Promise<void> {
  await affected(
    db,
    workspaceDb
      .updateTable('hr_attendance')
      .set({ check_out: sql<Date>`greatest(${at}, check_in + interval '1 millisecond')`, updated_at: at })
      .where('employee_id', '=', employeeId)
      .where('check_out', 'is', null),
  );
}

const part: Partition = { workspaceId: example.id, environment: 'live' };

export const examples: QueryExamples = {
  employeeById: (db) => employeeById(db, part, example.otherId),
  lockEmployeeRow: (db) => lockEmployeeRow(db, part, example.otherId),
  accountEmployed: (db) => accountEmployed(db, part, example.otherId),
  employeePage: (db) =>
    employeePage(db, part, { status: 'active', department: 'sales', managerId: example.id }, { id: example.otherId }, 51),
  insertEmployee: (db) =>
    insertEmployee(db, part, {
      id: example.otherId,
      name: example.text,
      email: null,
      jobTitle: null,
      department: 'sales',
      accountId: example.id,
      managerId: null,
      hireDate: '2026-01-01',
      at: example.at,
    }),
  updateEmployee: (db) => updateEmployee(db, example.otherId, { name: example.text, department: 'sales' }, example.at),
  terminateEmployee: (db) => terminateEmployee(db, example.otherId, '2026-01-01', null, example.at),
  closeOpenAttendance: (db) => closeOpenAttendance(db, example.otherId, example.at),
};
