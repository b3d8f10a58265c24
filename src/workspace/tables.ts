// The workspace API's tables as typed queries see them: its own MikroORM entities and the shared core's it reads
// (platform/db/typed.ts), with the platform's outbox.
import { typedQueries, type TablesOf } from '../platform/db/typed.js';
import type { ApprovalEntity, ApprovalDecisionEntity } from './approvals/entities.js';
import type { SvcAuditLogEntity } from './audit/entities.js';
import type { HrEmployeeEntity, HrAttendanceEntity, HrLeaveEntity } from './hr/entities.js';
import type { SvcKeyEntity } from './keys/entities.js';
import type { TicketEntity, TicketCommentEntity } from './tickets/entities.js';
import type { AccountEntity } from '../core/accounts/entities.js';
import type { CrmRecordEntity } from '../core/crm/entities.js';
import type { InboxConversationEntity, InboxMessageEntity, InboxChannelEntity } from '../core/inbox/entities.js';
import type { ModuleEntity, CustomerKeyEntity } from '../core/modules/entities.js';
import type { WebhookEntity, WebhookDeliveryEntity } from '../core/webhooks/entities.js';
import type { WorkspaceEntity, WorkspaceMemberEntity } from '../core/workspaces/entities.js';
import type { OutboxEntity } from '../platform/db/entities.js';

export type WorkspaceTables = TablesOf<
  | typeof ApprovalEntity
  | typeof ApprovalDecisionEntity
  | typeof SvcAuditLogEntity
  | typeof HrEmployeeEntity
  | typeof HrAttendanceEntity
  | typeof HrLeaveEntity
  | typeof SvcKeyEntity
  | typeof TicketEntity
  | typeof TicketCommentEntity
  | typeof AccountEntity
  | typeof CrmRecordEntity
  | typeof InboxConversationEntity
  | typeof InboxMessageEntity
  | typeof InboxChannelEntity
  | typeof ModuleEntity
  | typeof CustomerKeyEntity
  | typeof WebhookEntity
  | typeof WebhookDeliveryEntity
  | typeof WorkspaceEntity
  | typeof WorkspaceMemberEntity
  | typeof OutboxEntity
>;

/** Builds the workspace's statements; run them with rows / firstRow / affected / hotRows of platform/db/typed.ts. */
export const workspaceDb = typedQueries<WorkspaceTables>();
