// The chat's tables as typed queries see them: its own MikroORM entities and the shared core's it reads
// (platform/db/typed.ts), with the platform's outbox.
import { typedQueries, type TablesOf } from '../../platform/db/typed.js';
import type { CoreEntity } from '../../core/tables.js';
import type { BotEntity, BotRoomSettingEntity, BotUpdateEntity, BotCallbackQueryEntity } from './entities/bots.js';
import type { BotPollEntity, BotPollAnswerEntity } from './entities/bot-polls.js';
import type { BroadcastEntity, BroadcastReadEntity } from './entities/broadcasts.js';
import type { ChannelEntity, ChannelMemberEntity } from './entities/channels.js';
import type { ContactRequestEntity } from './entities/contacts.js';
import type { DraftEntity } from './entities/drafts.js';
import type { AccountExportEntity } from './entities/exports.js';
import type { LabelEntity, RoomLabelEntity } from './entities/labels.js';
import type { UploadEntity } from './entities/media.js';
import type { MentionEntity } from './entities/mentions.js';
import type { MessageEntity, MessageHideEntity, MessageReactionEntity } from './entities/messages.js';
import type { RoomPinEntity, PersonalPinEntity } from './entities/pins.js';
import type { PollEntity, PollOptionEntity, PollBallotEntity } from './entities/polls.js';
import type { EventLogEntity, UserEventEntity } from './entities/realtime.js';
import type { ReminderEntity, ReminderOccurrenceEntity } from './entities/reminders.js';
import type { RoomEntity, RoomMemberEntity, JoinRequestEntity } from './entities/rooms.js';
import type { SavedMessageEntity } from './entities/saved.js';
import type { CustomerRetentionEntity, RoomRetentionEntity } from './entities/retention.js';
import type { ScheduledMessageEntity } from './entities/scheduled.js';
import type { ThreadFollowEntity } from './entities/threads.js';
import type { ReceiptSettingEntity, ReadNoticeEntity } from './entities/receipts.js';
import type { OutboxEntity } from '../../platform/db/entities.js';
import type { ErasureEntity } from './entities/erasures.js';

export type ChatTables = TablesOf<
  | CoreEntity
  | typeof BotEntity
  | typeof BotRoomSettingEntity
  | typeof BotUpdateEntity
  | typeof BotCallbackQueryEntity
  | typeof BotPollEntity
  | typeof BotPollAnswerEntity
  | typeof BroadcastEntity
  | typeof BroadcastReadEntity
  | typeof ChannelEntity
  | typeof ChannelMemberEntity
  | typeof ContactRequestEntity
  | typeof DraftEntity
  | typeof LabelEntity
  | typeof RoomLabelEntity
  | typeof UploadEntity
  | typeof MentionEntity
  | typeof MessageEntity
  | typeof MessageHideEntity
  | typeof MessageReactionEntity
  | typeof RoomPinEntity
  | typeof PersonalPinEntity
  | typeof PollEntity
  | typeof PollOptionEntity
  | typeof PollBallotEntity
  | typeof EventLogEntity
  | typeof UserEventEntity
  | typeof ReminderEntity
  | typeof ReminderOccurrenceEntity
  | typeof RoomEntity
  | typeof RoomMemberEntity
  | typeof JoinRequestEntity
  | typeof SavedMessageEntity
  | typeof ScheduledMessageEntity
  | typeof ThreadFollowEntity
  | typeof CustomerRetentionEntity
  | typeof RoomRetentionEntity
  | typeof ReceiptSettingEntity
  | typeof ReadNoticeEntity
  | typeof OutboxEntity
  | typeof ErasureEntity
  | typeof AccountExportEntity
>;

/** Builds the chat's statements; run them with rows / firstRow / affected / hotRows of platform/db/typed.ts. */
export const chatDb = typedQueries<ChatTables>();
