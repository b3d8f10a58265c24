// The partner API's tables as typed queries see them: its own MikroORM entities and the shared core's it reads
// (platform/db/typed.ts), with the platform's outbox.
import { typedQueries, type TablesOf } from '../platform/db/typed.js';
import type { CoreEntity } from '../core/tables.js';
import type { AiAgentEntity } from './ai/entities.js';
import type { ApiKeyEntity } from './api-keys/entities.js';
import type { IdempotencyKeyEntity } from './idempotency/entities.js';
import type { KbArticleEntity } from './kb/entities.js';
import type { StorageFileEntity } from './storage/entities.js';
import type { WorkspaceRoleEntity, RoleCellEntity } from './workspaces/entities.js';
import type { OutboxEntity } from '../platform/db/entities.js';

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
