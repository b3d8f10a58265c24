// Employees: added (employee.created), changed while active, terminated (employee.terminated). A terminated
// employee is final: no changes, no check-ins, no leave.
import { readPool } from '../../platform/db/read-router.js';
import type { Partition } from '../../core/crm/records.js';
import type { Queryable } from '../../platform/db/queryable.js';
import { newId } from '../../platform/ids.js';
import { checkMembers, dateOf, todayOf, uniqueOr409 } from '../common/checks.js';
import { Filters } from '../../platform/db/filters.js';
import { defaultLimit, pageOf, readCursor } from '../common/paging.js';
import { changesOf } from '../../core/events/changes.js';
import { withEvents, type EventDeps } from '../../core/events/outbox.js';
import { workspaceErrors } from '../errors.js';
import type { Page } from '../keys/service.js';
import { employeeColumns, employeeView, type EmployeeRow, type EmployeeView } from './views.js';

export const employeesPath = '/api/v1/employees';
const notFound = () => workspaceErrors.notFound('The employee');

export async function lockEmployee(db: Queryable, part: Partition, id: string): Promise<EmployeeRow | undefined> {
  const { rows } = await db.query<EmployeeRow>(`select ${employeeColumns} from hr_employees where id = $1 and workspace_id = $2 and environment = $3 for update`, [
    id,
    part.workspaceId,
    part.environment,
  ]);
  return rows[0];
}

/** The employee named by a body field: 400 when not in the partition, 409 when terminated. */
export async function activeEmployee(db: Queryable, part: Partition, field: string, id: string): Promise<EmployeeRow> {
  const employee = await lockEmployee(db, part, id);
  if (!employee) throw workspaceErrors.invalid(field, 'names no employee of this workspace');
  if (employee.status !== 'active') throw workspaceErrors.conflict('The employee is terminated.');
  return employee;
}

async function checkManager(db: Queryable, part: Partition, managerId: string | null | undefined, self?: string): Promise<void> {
  if (typeof managerId !== 'string') return;
  if (managerId === self) throw workspaceErrors.invalid('body.manager_id', 'cannot be the employee itself');
  const { rows } = await db.query<{ status: string }>('select status from hr_employees where id = $1 and workspace_id = $2 and environment = $3', [
    managerId,
    part.workspaceId,
    part.environment,
  ]);
  if (rows[0]?.status !== 'active') throw workspaceErrors.invalid('body.manager_id', 'names no active employee of this workspace');
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

  async list(part: Partition, query: { limit?: number; cursor?: string; status?: string; department?: string; manager_id?: string }): Promise<Page<EmployeeView>> {
    const db = await readPool(this.deps);
    const limit = query.limit ?? defaultLimit;
    const after = readCursor('employees', query.cursor);
    const where = new Filters([part.workspaceId, part.environment]).eq('status', query.status).eq('department', query.department).eq('manager_id', query.manager_id).raw('id < $?', after?.id);
    const { rows } = await db.query<EmployeeRow>(
      `select ${employeeColumns} from hr_employees where workspace_id = $1 and environment = $2${where.sql()} order by id desc limit ${where.push(limit + 1)}`,
      where.params,
    );
    return pageOf(rows, limit, 'employees', employeeView);
  }

  async get(part: Partition, id: string): Promise<EmployeeView> {
    const db = await readPool(this.deps);
    const { rows } = await db.query<EmployeeRow>(`select ${employeeColumns} from hr_employees where id = $1 and workspace_id = $2 and environment = $3`, [
      id,
      part.workspaceId,
      part.environment,
    ]);
    if (!rows[0]) throw notFound();
    return employeeView(rows[0]);
  }

  async create(part: Partition, body: EmployeeInput & { name: string }): Promise<EmployeeView> {
    const hireDate = body.hire_date !== undefined ? dateOf('body.hire_date', body.hire_date) : undefined;
    return withEvents(this.deps, this.deps.sql, part, async (tx, sink, now) => {
      await checkMembers(tx, part.workspaceId, [{ field: 'body.account_id', id: body.account_id }]);
      await checkManager(tx, part, body.manager_id);
      const alreadyEmployed = 'The member is already an active employee of this workspace.';
      if (body.account_id) {
        const { rowCount } = await tx.query("select 1 from hr_employees where workspace_id = $1 and environment = $2 and account_id = $3 and status = 'active'", [
          part.workspaceId,
          part.environment,
          body.account_id,
        ]);
        if (rowCount) throw workspaceErrors.conflict(alreadyEmployed);
      }
      const { rows } = await uniqueOr409(() => tx.query<EmployeeRow>(
        `insert into hr_employees (id, workspace_id, environment, name, email, job_title, department, account_id, manager_id, hire_date, status, created_at, updated_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'active', $11, $11) returning ${employeeColumns}`,
        [newId(), part.workspaceId, part.environment, body.name, body.email ?? null, body.job_title ?? null, body.department ?? null, body.account_id ?? null, body.manager_id ?? null, hireDate ?? todayOf(now), now],
      ), alreadyEmployed);
      const view = employeeView(rows[0]!);
      sink.emit('employee.created', view);
      return view;
    });
  }

  /** Changes an active employee; the catalogue has no event for it. */
  async update(part: Partition, id: string, body: EmployeeInput): Promise<EmployeeView> {
    return withEvents(this.deps, this.deps.sql, part, async (tx) => {
      const before = await lockEmployee(tx, part, id);
      if (!before) throw notFound();
      if (before.status !== 'active') throw workspaceErrors.conflict('The employee is terminated; a terminated employee cannot be changed.');
      await checkManager(tx, part, body.manager_id, id);
      const fields = (['name', 'email', 'job_title', 'department', 'manager_id'] as const).filter((f) => body[f] !== undefined && body[f] !== before[f]);
      if (fields.length === 0) return employeeView(before);
      const now = this.deps.clock.now();
      const sets = fields.map((f, i) => `${f} = $${i + 2}`).join(', ');
      const { rows } = await tx.query<EmployeeRow>(`update hr_employees set ${sets}, updated_at = $${fields.length + 2} where id = $1 returning ${employeeColumns}`, [
        id,
        ...fields.map((f) => body[f]),
        now,
      ]);
      return employeeView(rows[0]!);
    });
  }

  async terminate(part: Partition, id: string, body: { terminated_on?: string; reason?: string | null }): Promise<EmployeeView> {
    const on = body.terminated_on !== undefined ? dateOf('body.terminated_on', body.terminated_on) : undefined;
    return withEvents(this.deps, this.deps.sql, part, async (tx, sink, now) => {
      const before = await lockEmployee(tx, part, id);
      if (!before) throw notFound();
      if (before.status === 'terminated') return employeeView(before);
      const date = on ?? todayOf(now);
      if (date < before.hire_date) throw workspaceErrors.invalid('body.terminated_on', `is before the hire date ${before.hire_date}`);
      const { rows } = await tx.query<EmployeeRow>(
        `update hr_employees set status = 'terminated', terminated_on = $2, termination_reason = $3, updated_at = $4 where id = $1 returning ${employeeColumns}`,
        [id, date, body.reason ?? null, now],
      );
      // An open check-in ends with the employment.
      await tx.query('update hr_attendance set check_out = greatest($2, check_in + interval \'1 millisecond\'), updated_at = $2 where employee_id = $1 and check_out is null', [id, now]);
      const view = employeeView(rows[0]!);
      sink.emit('employee.terminated', view, changesOf(employeeView(before), view, ['status', 'terminated_on', 'termination_reason']));
      return view;
    });
  }
}
