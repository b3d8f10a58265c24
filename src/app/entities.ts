// Every MikroORM entity of the platform, one per table: the single source of the schema. The ORM is initialised with
// this list, and the schema check compares it with the migrated database.
import { BotEntity, BotRoomSettingEntity, BotUpdateEntity, BotCallbackQueryEntity } from '../chat/base/entities/bots.js';
import { BotPollEntity, BotPollAnswerEntity } from '../chat/base/entities/bot-polls.js';
import { BroadcastEntity, BroadcastReadEntity } from '../chat/base/entities/broadcasts.js';
import { ChannelEntity, ChannelMemberEntity } from '../chat/base/entities/channels.js';
import { ContactRequestEntity } from '../chat/base/entities/contacts.js';
import { DraftEntity } from '../chat/base/entities/drafts.js';
import { AccountExportEntity } from '../chat/base/entities/exports.js';
import { LabelEntity, RoomLabelEntity } from '../chat/base/entities/labels.js';
import { UploadEntity } from '../chat/base/entities/media.js';
import { MentionEntity } from '../chat/base/entities/mentions.js';
import { MessageEntity, MessageHideEntity, MessageReactionEntity } from '../chat/base/entities/messages.js';
import { RoomPinEntity, PersonalPinEntity } from '../chat/base/entities/pins.js';
import { PollEntity, PollOptionEntity, PollBallotEntity } from '../chat/base/entities/polls.js';
import { EventLogEntity, UserEventEntity } from '../chat/base/entities/realtime.js';
import { ReminderEntity, ReminderOccurrenceEntity } from '../chat/base/entities/reminders.js';
import { RoomEntity, RoomMemberEntity, JoinRequestEntity } from '../chat/base/entities/rooms.js';
import { SavedMessageEntity } from '../chat/base/entities/saved.js';
import { CustomerRetentionEntity, RoomRetentionEntity } from '../chat/base/entities/retention.js';
import { ScheduledMessageEntity } from '../chat/base/entities/scheduled.js';
import { ThreadFollowEntity } from '../chat/base/entities/threads.js';
import { ReceiptSettingEntity, ReadNoticeEntity } from '../chat/base/entities/receipts.js';
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
import { ErasureEntity } from '../chat/base/entities/erasures.js';

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
  CustomerRetentionEntity,
  RoomRetentionEntity,
  ReceiptSettingEntity,
  ReadNoticeEntity,
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
  ErasureEntity,
  AccountExportEntity,
];
