// Every MikroORM entity of the platform, one per table: the single source of the schema. The ORM is initialised with
// this list, and the schema check compares it with the migrated database.
import { BotEntity, BotRoomSettingEntity, BotUpdateEntity, BotCallbackQueryEntity } from '../chat/bots/table-entities.js';
import { BroadcastEntity, BroadcastReadEntity } from '../chat/broadcasts/entities.js';
import { ChannelEntity, ChannelMemberEntity } from '../chat/channels/entities.js';
import { ContactRequestEntity } from '../chat/contacts/entities.js';
import { DraftEntity } from '../chat/drafts/entities.js';
import { LabelEntity, RoomLabelEntity } from '../chat/labels/entities.js';
import { UploadEntity } from '../chat/media/entities.js';
import { MentionEntity } from '../chat/mentions/entities.js';
import { MessageEntity, MessageHideEntity, MessageReactionEntity } from '../chat/messages/entities.js';
import { RoomPinEntity, PersonalPinEntity } from '../chat/pins/entities.js';
import { PollEntity, PollOptionEntity, PollBallotEntity } from '../chat/polls/entities.js';
import { EventLogEntity, UserEventEntity } from '../chat/realtime/entities.js';
import { ReminderEntity, ReminderOccurrenceEntity } from '../chat/reminders/entities.js';
import { RoomEntity, RoomMemberEntity, JoinRequestEntity } from '../chat/rooms/entities.js';
import { SavedMessageEntity } from '../chat/saved/entities.js';
import { ScheduledMessageEntity } from '../chat/scheduled/entities.js';
import { ThreadFollowEntity } from '../chat/threads/entities.js';
import { CrmRecordEntity } from '../core/crm/entities.js';
import { WebhookEntity, WebhookDeliveryEntity } from '../core/webhooks/entities.js';
import { WorkspaceEntity, WorkspaceMemberEntity } from '../core/workspaces/entities.js';
import { ApiKeyEntity } from '../partner/api-keys/entities.js';
import { IdempotencyKeyEntity } from '../partner/idempotency/entities.js';
import { KbArticleEntity } from '../partner/kb/entities.js';
import { AiAgentEntity } from '../partner/ai/entities.js';
import { StorageFileEntity } from '../partner/storage/entities.js';
import { WorkspaceRoleEntity, RoleCellEntity } from '../partner/workspaces/entities.js';
import { OutboxEntity, PlatformSecretEntity } from '../platform/db/entities.js';
import { ApprovalEntity, ApprovalDecisionEntity } from '../workspace/approvals/entities.js';
import { SvcAuditLogEntity } from '../workspace/audit/entities.js';
import { HrEmployeeEntity, HrAttendanceEntity, HrLeaveEntity } from '../workspace/hr/entities.js';
import { InboxChannelEntity, InboxConversationEntity, InboxMessageEntity } from '../core/inbox/entities.js';
import { SvcKeyEntity } from '../workspace/keys/entities.js';
import { TicketEntity, TicketCommentEntity } from '../workspace/tickets/entities.js';
import { AccountEntity } from '../core/accounts/entities.js';
import { ModuleEntity, CustomerKeyEntity } from '../core/modules/entities.js';

export const entities = [
  BotEntity,
  BotRoomSettingEntity,
  BotUpdateEntity,
  BotCallbackQueryEntity,
  BroadcastEntity,
  BroadcastReadEntity,
  ChannelEntity,
  ChannelMemberEntity,
  ContactRequestEntity,
  DraftEntity,
  LabelEntity,
  RoomLabelEntity,
  UploadEntity,
  MentionEntity,
  MessageEntity,
  MessageHideEntity,
  MessageReactionEntity,
  RoomPinEntity,
  PersonalPinEntity,
  PollEntity,
  PollOptionEntity,
  PollBallotEntity,
  EventLogEntity,
  UserEventEntity,
  ReminderEntity,
  ReminderOccurrenceEntity,
  RoomEntity,
  RoomMemberEntity,
  JoinRequestEntity,
  SavedMessageEntity,
  ScheduledMessageEntity,
  ThreadFollowEntity,
  CrmRecordEntity,
  WebhookEntity,
  WebhookDeliveryEntity,
  WorkspaceEntity,
  WorkspaceMemberEntity,
  ApiKeyEntity,
  IdempotencyKeyEntity,
  KbArticleEntity,
  AiAgentEntity,
  StorageFileEntity,
  WorkspaceRoleEntity,
  RoleCellEntity,
  OutboxEntity,
  PlatformSecretEntity,
  ApprovalEntity,
  ApprovalDecisionEntity,
  SvcAuditLogEntity,
  HrEmployeeEntity,
  HrAttendanceEntity,
  HrLeaveEntity,
  InboxConversationEntity,
  InboxMessageEntity,
  InboxChannelEntity,
  SvcKeyEntity,
  TicketEntity,
  TicketCommentEntity,
  AccountEntity,
  ModuleEntity,
  CustomerKeyEntity,
];
