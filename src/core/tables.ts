// The shared core's tables as typed queries see them, from its MikroORM entities (platform/db/typed.ts), with the
// platform's outbox for statements that write their events inside.
import { typedQueries, type TablesOf } from '../platform/db/typed.js';
import type { AccountEntity } from './accounts/entities.js';
import type { CrmRecordEntity } from './entities/crm.js';
import type { InboxConversationEntity, InboxMessageEntity, InboxChannelEntity } from './entities/inbox.js';
import type { ModuleEntity, CustomerKeyEntity } from './modules/entities.js';
import type { WebhookEntity, WebhookDeliveryEntity } from './entities/webhooks.js';
import type { WorkspaceEntity, WorkspaceMemberEntity } from './entities/workspaces.js';
import type { OutboxEntity } from '../platform/db/entities.js';

/** The shared core's entities: the tables every layer above may read. */
export type CoreEntity =
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
  | typeof WorkspaceMemberEntity;

export type CoreTables = TablesOf<CoreEntity | typeof OutboxEntity>;

/** Builds the core's statements; run them with rows / firstRow / affected / hotRows of platform/db/typed.ts. */
export const coreDb = typedQueries<CoreTables>();
