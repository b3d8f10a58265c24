// The chat's tables as typed queries see them: its own MikroORM entities and the shared core's it reads
// (platform/db/typed.ts), with the platform's outbox.
import { typedQueries, type TablesOf } from '../platform/db/typed.js';
import type { CoreEntity } from '../core/tables.js';
import type { BotEntity, BotRoomSettingEntity, BotUpdateEntity, BotCallbackQueryEntity } from './bots/table-entities.js';
import type { BotPollEntity, BotPollAnswerEntity } from './bots/poll-entities.js';
import type { BroadcastEntity, BroadcastReadEntity } from './broadcasts/entities.js';
import type { ChannelEntity, ChannelMemberEntity } from './channels/entities.js';
import type { ContactRequestEntity } from './contacts/entities.js';
import type { DraftEntity } from './drafts/entities.js';
import type { LabelEntity, RoomLabelEntity } from './labels/entities.js';
import type { UploadEntity } from './media/entities.js';
import type { MentionEntity } from './mentions/entities.js';
import type { MessageEntity, MessageHideEntity, MessageReactionEntity } from './messages/entities.js';
import type { RoomPinEntity, PersonalPinEntity } from './pins/entities.js';
import type { PollEntity, PollOptionEntity, PollBallotEntity } from './polls/entities.js';
import type { EventLogEntity, UserEventEntity } from './realtime/entities.js';
import type { ReminderEntity, ReminderOccurrenceEntity } from './reminders/entities.js';
import type { RoomEntity, RoomMemberEntity, JoinRequestEntity } from './rooms/entities.js';
import type { SavedMessageEntity } from './saved/entities.js';
import type { ScheduledMessageEntity } from './scheduled/entities.js';
import type { ThreadFollowEntity } from './threads/entities.js';
import type { OutboxEntity } from '../platform/db/entities.js';

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
  | typeof OutboxEntity
>;

/** Builds the chat's statements; run them with rows / firstRow / affected / hotRows of platform/db/typed.ts. */
export const chatDb = typedQueries<ChatTables>();
