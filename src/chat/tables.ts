// The chat's tables as typed queries see them, from the chat's own MikroORM entities (platform/db/typed.ts). A folder
// that moves from hand-written SQL to typed queries adds the entities of the tables it reads here.
import { typedQueries, type TablesOf } from '../platform/db/typed.js';
import type { AccountEntity } from './accounts/entities.js';
import type { ContactRequestEntity } from './contacts/entities.js';
import type { DraftEntity } from './drafts/entities.js';
import type { LabelEntity, RoomLabelEntity } from './labels/entities.js';
import type { RoomEntity, RoomMemberEntity } from './rooms/entities.js';

export type ChatTables = TablesOf<
  | typeof AccountEntity
  | typeof ContactRequestEntity
  | typeof DraftEntity
  | typeof LabelEntity
  | typeof RoomLabelEntity
  | typeof RoomEntity
  | typeof RoomMemberEntity
>;

/** Builds the chat's statements; run them with rows / firstRow / affected / hotRows of platform/db/typed.ts. */
export const chatDb = typedQueries<ChatTables>();
