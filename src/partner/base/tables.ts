// The partner API's tables as typed queries see them: its own MikroORM entities and the shared core's it reads
// (platform/db/typed.ts), with the platform's outbox.
import { typedQueries, type TablesOf } from '../../platform/db/typed.js';
import type { CoreEntity } from '../../core/tables.js';
import type { AiAgentEntity } from './entities/ai.js';
import type { ApiKeyEntity } from './entities/api-keys.js';
import type { IdempotencyKeyEntity } from './entities/idempotency.js';
import type { KbArticleEntity } from './entities/kb.js';
import type { StorageFileEntity } from './entities/storage.js';
import type { WorkspaceRoleEntity, RoleCellEntity } from './entities/workspaces.js';
import type { OutboxEntity } from '../../platform/db/entities.js';

export type PartnerTables = TablesOf<
  | CoreEntity
  | typeof AiAgentEntity
  | typeof ApiKeyEntity
  | typeof IdempotencyKeyEntity
  | typeof KbArticleEntity
  | typeof StorageFileEntity
  | typeof WorkspaceRoleEntity
  | typeof RoleCellEntity
  | typeof OutboxEntity
>;

/** Builds the partner's statements; run them with rows / firstRow / affected / hotRows of platform/db/typed.ts. */
export const partnerDb = typedQueries<PartnerTables>();
