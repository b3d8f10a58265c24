// The workspace API's tables as typed queries see them: its own MikroORM entities and the shared core's it reads
// (platform/db/typed.ts), with the platform's outbox.
import { typedQueries, type TablesOf } from '../../platform/db/typed.js';
import type { CoreEntity } from '../../core/tables.js';
import type { ApprovalEntity, ApprovalDecisionEntity } from './entities/approvals.js';
import type { SvcAuditLogEntity } from './entities/audit.js';
import type { HrEmployeeEntity, HrAttendanceEntity, HrLeaveEntity } from './entities/hr.js';
import type { SvcKeyEntity } from './entities/keys.js';
import type { TicketEntity, TicketCommentEntity } from './entities/tickets.js';
import type { OutboxEntity } from '../../platform/db/entities.js';

export type WorkspaceTables = TablesOf<
  | CoreEntity
  | typeof ApprovalEntity
  | typeof ApprovalDecisionEntity
  | typeof SvcAuditLogEntity
  | typeof HrEmployeeEntity
  | typeof HrAttendanceEntity
  | typeof HrLeaveEntity
  | typeof SvcKeyEntity
  | typeof TicketEntity
  | typeof TicketCommentEntity
  | typeof OutboxEntity
>;

/** Builds the workspace's statements; run them with rows / firstRow / affected / hotRows of platform/db/typed.ts. */
export const workspaceDb = typedQueries<WorkspaceTables>();
