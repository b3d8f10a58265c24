// Every MikroORM entity of the platform, one per table: the single source of the schema. The ORM is initialised with
// this list, and the schema check compares it with the migrated database.
import { BotEntity, BotRoomSettingEntity, BotUpdateEntity, BotCallbackQueryEntity } from '../chat/bots/table-entities.js';
import { BotPollEntity, BotPollAnswerEntity } from '../chat/bots/poll-entities.js';
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
import { CrmRecordEntity } from '../core/entities/crm.js';
import { WebhookEntity, WebhookDeliveryEntity } from '../core/entities/webhooks.js';
import { WorkspaceEntity, WorkspaceMemberEntity } from '../core/entities/workspaces.js';
import { ApiKeyEntity } from '../partner/base/entities/api-keys.js';
import { IdempotencyKeyEntity } from '../partner/base/entities/idempotency.js';
import { KbArticleEntity } from '../partner/base/entities/kb.js';
import { AiAgentEntity } from '../partner/base/entities/ai.js';
import { StorageFileEntity } from '../partner/base/entities/storage.js';
import { WorkspaceRoleEntity, RoleCellEntity } from '../partner/base/entities/workspaces.js';
import { OutboxEntity, PlatformSecretEntity } from '../platform/db/entities.js';
import { ApprovalEntity, ApprovalDecisionEntity } from '../workspace/base/entities/approvals.js';
import { SvcAuditLogEntity } from '../workspace/base/entities/audit.js';
import { HrEmployeeEntity, HrAttendanceEntity, HrLeaveEntity } from '../workspace/base/entities/hr.js';
import { InboxChannelEntity, InboxConversationEntity, InboxMessageEntity } from '../core/entities/inbox.js';
import { SvcKeyEntity } from '../workspace/base/entities/keys.js';
import { TicketEntity, TicketCommentEntity } from '../workspace/base/entities/tickets.js';
import { AccountEntity } from '../core/accounts/entities.js';
import { ModuleEntity, CustomerKeyEntity } from '../core/modules/entities.js';

export const entities = [
  BotEntity,
  BotRoomSettingEntity,
  BotUpdateEntity,
  BotCallbackQueryEntity,
  BotPollEntity,
  BotPollAnswerEntity,
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
