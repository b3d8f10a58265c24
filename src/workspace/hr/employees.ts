// Employees: added (employee.created), changed while active, terminated (employee.terminated). A terminated
// employee is final: no changes, no check-ins, no leave.
import { readPool } from '../../platform/db/read-router.js';
import type { Partition } from '../../core/crm/queries.js';
import type { Runner } from '../../platform/db/typed.js';
import { newId } from '../../platform/ids.js';
import { checkMembers, dateOf, todayOf, uniqueOr409 } from '../base/checks.js';
import { defaultLimit, listIn, pageOf, readCursor } from '../base/paging.js';
import { changesOf } from '../../core/events/changes.js';
import { withEvents, type EventDeps } from '../../core/events/outbox.js';
import { workspaceErrors } from '../base/errors.js';
import type { Page } from '../base/paging.js';
import {
  accountEmployed,
  closeOpenAttendance,
  employeeById,
  employeePage,
  insertEmployee,
  lockEmployeeRow,
  terminateEmployee,
  updateEmployee,
  type EmployeeRow,
} from './employee-queries.js';
import { employeeView, type EmployeeView } from './views.js';

export const employeesPath = '/api/v1/employees';
const notFound = () => workspaceErrors.notFound('The employee');

/** The employee named by a body field: 400 when not in the partition, 409 when terminated. */
export async function activeEmployee(db: Runner, part: Partition, field: string, id: string): Promise<EmployeeRow> {
  const employee = await lockEmployeeRow(db, part, id);
  if (!employee) throw workspaceErrors.invalid(field, 'names no employee of this workspace');
  if (employee.status !== 'active') throw workspaceErrors.conflict('The employee is terminated.');
  return employee;
}

async function checkManager(db: Runner, part: Partition, managerId: string | null | undefined, self?: string): Promise<void> {
  if (typeof managerId !== 'string') return;
  if (managerId === self) throw workspaceErrors.invalid('body.manager_id', 'cannot be the employee itself');
  const manager = await employeeById(db, part, managerId);
  if (manager?.status !== 'active') throw workspaceErrors.invalid('body.manager_id', 'names no active employee of this workspace');
}

export interface EmployeeInput {
  name?: string;
  email?: string | null;
  job_title?: string | null;
  department?: string | null;
  account_id?: string | null;
  manager_id?: string | null;
  hire_date?: string;
}

export class EmployeeService {
  constructor(private readonly deps: EventDeps) {}

  async list(
    part: Partition,
    query: { limit?: number; cursor?: string; status?: string; department?: string; manager_id?: string },
  ): Promise<Page<EmployeeView>> {
    const db = await readPool(this.deps);
    const limit = query.limit ?? defaultLimit;
    const list = listIn(part, 'employees', query);
    const after = readCursor(list, query.cursor);
    const filter = { status: query.status, department: query.department, managerId: query.manager_id };
    const found = await employeePage(db, part, filter, after, limit + 1);
    return pageOf(found, limit, list, employeeView);
  }

  async get(part: Partition, id: string): Promise<EmployeeView> {
    const db = await readPool(this.deps);
    const row = await employeeById(db, part, id);
    if (!row) throw notFound();
    return employeeView(row);
  }

  async create(part: Partition, body: EmployeeInput & { name: string }): Promise<EmployeeView> {
    const hireDate = body.hire_date !== undefined ? dateOf('body.hire_date', body.hire_date) : undefined;
    return withEvents(this.deps, this.deps.sql, part, async (tx, sink, now) => {
      await checkMembers(tx, part.workspaceId, [{ field: 'body.account_id', id: body.account_id }]);
      await checkManager(tx, part, body.manager_id);
      const alreadyEmployed = 'The member is already an active employee of this workspace.';
      if (body.account_id) {
        if (await accountEmployed(tx, part, body.account_id)) throw workspaceErrors.conflict(alreadyEmployed);
      }
      const row = await uniqueOr409(
        () =>
          insertEmployee(tx, part, {
            id: newId(),
            name: body.name,
            email: body.email ?? null,
            jobTitle: body.job_title ?? null,
            department: body.department ?? null,
            accountId: body.account_id ?? null,
            managerId: body.manager_id ?? null,
            hireDate: hireDate ?? todayOf(now),
            at: now,
          }),
        alreadyEmployed,
      );
      const view = employeeView(row);
      sink.emit('employee.created', view);
      return view;
    });
  }

  /** Changes an active employee; the catalogue has no event for it. */
  async update(part: Partition, id: string, body: EmployeeInput): Promise<EmployeeView> {
    return withEvents(this.deps, this.deps.sql, part, async (tx) => {
      const before = await lockEmployeeRow(tx, part, id);
      if (!before) throw notFound();
      if (before.status !== 'active')
        throw workspaceErrors.conflict('The employee is terminated; a terminated employee cannot be changed.');
      await checkManager(tx, part, body.manager_id, id);
      const fields = (['name', 'email', 'job_title', 'department', 'manager_id'] as const).filter(
        (f) => body[f] !== undefined && body[f] !== before[f],
      );
      if (fields.length === 0) return employeeView(before);
      const changes = Object.fromEntries(fields.map((f) => [f, body[f]]));
      return employeeView(await updateEmployee(tx, id, changes, this.deps.clock.now()));
    });
  }

  async terminate(part: Partition, id: string, body: { terminated_on?: string; reason?: string | null }): Promise<EmployeeView> {
    const on = body.terminated_on !== undefined ? dateOf('body.terminated_on', body.terminated_on) : undefined;
    return withEvents(this.deps, this.deps.sql, part, async (tx, sink, now) => {
      const before = await lockEmployeeRow(tx, part, id);
      if (!before) throw notFound();
      if (before.status === 'terminated') return employeeView(before);
      const date = on ?? todayOf(now);
      if (date < before.hire_date) throw workspaceErrors.invalid('body.terminated_on', `is before the hire date ${before.hire_date}`);
      const row = await terminateEmployee(tx, id, date, body.reason ?? null, now);
      // An open check-in ends with the employment.
      await closeOpenAttendance(tx, id, now);
      const view = employeeView(row);
      sink.emit('employee.terminated', view, changesOf(employeeView(before), view, ['status', 'terminated_on', 'termination_reason']));
      return view;
    });
  }
}
