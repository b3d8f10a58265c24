// Committed migrations in the order they apply. A new migration is appended, never edited once landed.
import { Migration20261121000001Init } from './Migration20261121000001Init.js';
import { Migration20261121000002Partner } from './Migration20261121000002Partner.js';
import { Migration20261123000001ChatCore } from './Migration20261123000001ChatCore.js';
import { Migration20261123000010Rooms } from './Migration20261123000010Rooms.js';
import { Migration20261123000030Threads } from './Migration20261123000030Threads.js';
import { Migration20261123000040Hardening } from './Migration20261123000040Hardening.js';
import { Migration20261123000060Workspace } from './Migration20261123000060Workspace.js';
import { Migration20261123000140Families } from './Migration20261123000140Families.js';
import { Migration20261123000150Channels } from './Migration20261123000150Channels.js';
import { Migration20261123000160Personal } from './Migration20261123000160Personal.js';
import { Migration20261123000190Realtime } from './Migration20261123000190Realtime.js';
import { Migration20261123000070TimeUploads } from './Migration20261123000070TimeUploads.js';
import { Migration20261123000080Bots } from './Migration20261123000080Bots.js';
import { Migration2026112300130Webhooks } from './Migration2026112300130Webhooks.js';
import { Migration20261124000200BotApiIds } from './Migration20261124000200BotApiIds.js';
import { Migration20261124000210ContactLifecycle } from './Migration20261124000210ContactLifecycle.js';
import { Migration20261124000210WebhookVerified } from './Migration20261124000210WebhookVerified.js';
import { Migration20261124000300MessageSearch } from './Migration20261124000300MessageSearch.js';
import { Migration20261124000400WorkspaceNotificationEmail } from './Migration20261124000400WorkspaceNotificationEmail.js';
import { Migration20261125000500PartnerKnowledge } from './Migration20261125000500PartnerKnowledge.js';

export const migrations = [
  { name: 'Migration20261121000001Init', class: Migration20261121000001Init },
  { name: 'Migration20261121000002Partner', class: Migration20261121000002Partner },
  { name: 'Migration20261123000001ChatCore', class: Migration20261123000001ChatCore },
  { name: 'Migration20261123000010Rooms', class: Migration20261123000010Rooms },
  { name: 'Migration20261123000030Threads', class: Migration20261123000030Threads },
  { name: 'Migration20261123000040Hardening', class: Migration20261123000040Hardening },
  { name: 'Migration20261123000060Workspace', class: Migration20261123000060Workspace },
  { name: 'Migration20261123000140Families', class: Migration20261123000140Families },
  { name: 'Migration20261123000150Channels', class: Migration20261123000150Channels },
  { name: 'Migration20261123000160Personal', class: Migration20261123000160Personal },
  { name: 'Migration20261123000190Realtime', class: Migration20261123000190Realtime },
  { name: 'Migration20261123000070TimeUploads', class: Migration20261123000070TimeUploads },
  { name: 'Migration20261123000080Bots', class: Migration20261123000080Bots },
  { name: 'Migration2026112300130Webhooks', class: Migration2026112300130Webhooks },
  { name: 'Migration20261124000200BotApiIds', class: Migration20261124000200BotApiIds },
  { name: 'Migration20261124000210ContactLifecycle', class: Migration20261124000210ContactLifecycle },
  { name: 'Migration20261124000210WebhookVerified', class: Migration20261124000210WebhookVerified },
  { name: 'Migration20261124000300MessageSearch', class: Migration20261124000300MessageSearch },
  { name: 'Migration20261124000400WorkspaceNotificationEmail', class: Migration20261124000400WorkspaceNotificationEmail },
  { name: 'Migration20261125000500PartnerKnowledge', class: Migration20261125000500PartnerKnowledge },
];
