// The HR families (/employees, /attendance, /leaves): typed in, one service call, the record out.
import { partitionOf } from '../crm/partition.js';
import type { WorkspaceDeps } from '../base/deps.js';
import type { WorkspaceFeatureHandlers } from '../base/handler-types.js';
import { AttendanceService, attendancePath } from './attendance.js';
import { EmployeeService, employeesPath } from './employees.js';
import { LeaveService, leavesPath } from './leaves.js';

export type HrOperationId =
  | 'listEmployees'
  | 'createEmployee'
  | 'getEmployee'
  | 'updateEmployee'
  | 'terminateEmployee'
  | 'listAttendance'
  | 'createAttendance'
  | 'getAttendance'
  | 'updateAttendance'
  | 'listLeaves'
  | 'createLeave'
  | 'getLeave'
  | 'approveLeave'
  | 'rejectLeave';

export function hrHandlers(deps: WorkspaceDeps): WorkspaceFeatureHandlers<HrOperationId> {
  const employees = new EmployeeService(deps);
  const attendance = new AttendanceService(deps);
  const leaves = new LeaveService(deps);
  return {
    async listEmployees({ query }, ctx) {
      return { status: 200, body: await employees.list(partitionOf(ctx), query ?? {}) };
    },
    async createEmployee({ body }, ctx) {
      const employee = await employees.create(partitionOf(ctx), body);
      return { status: 201, body: employee, location: `${employeesPath}/${employee.id}` };
    },
    async getEmployee({ params }, ctx) {
      return { status: 200, body: await employees.get(partitionOf(ctx), params.id) };
    },
    async updateEmployee({ params, body }, ctx) {
      return { status: 200, body: await employees.update(partitionOf(ctx), params.id, body) };
    },
    async terminateEmployee({ params, body }, ctx) {
      return { status: 200, body: await employees.terminate(partitionOf(ctx), params.id, body ?? {}) };
    },
    async listAttendance({ query }, ctx) {
      return { status: 200, body: await attendance.list(partitionOf(ctx), query ?? {}) };
    },
    async createAttendance({ body }, ctx) {
      const record = await attendance.create(partitionOf(ctx), body);
      return { status: 201, body: record, location: `${attendancePath}/${record.id}` };
    },
    async getAttendance({ params }, ctx) {
      return { status: 200, body: await attendance.get(partitionOf(ctx), params.id) };
    },
    async updateAttendance({ params, body }, ctx) {
      return { status: 200, body: await attendance.update(partitionOf(ctx), params.id, body) };
    },
    async listLeaves({ query }, ctx) {
      return { status: 200, body: await leaves.list(partitionOf(ctx), query ?? {}) };
    },
    async createLeave({ body }, ctx) {
      const leave = await leaves.create(partitionOf(ctx), body);
      return { status: 201, body: leave, location: `${leavesPath}/${leave.id}` };
    },
    async getLeave({ params }, ctx) {
      return { status: 200, body: await leaves.get(partitionOf(ctx), params.id) };
    },
    async approveLeave({ params, body }, ctx) {
      return { status: 200, body: await leaves.decide(partitionOf(ctx), params.id, 'approved', body?.decided_by) };
    },
    async rejectLeave({ params, body }, ctx) {
      return { status: 200, body: await leaves.decide(partitionOf(ctx), params.id, 'rejected', body?.decided_by) };
    },
  };
}
