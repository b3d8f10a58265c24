// The partner API's tables as typed queries see them, from its own MikroORM entities (platform/db/typed.ts). A folder
// that moves from hand-written SQL to typed queries adds the entities of the tables it reads here.
import { typedQueries, type TablesOf } from '../platform/db/typed.js';
import type { AiAgentEntity } from './ai/entities.js';
import type { KbArticleEntity } from './kb/entities.js';
import type { StorageFileEntity } from './storage/entities.js';

export type PartnerTables = TablesOf<typeof AiAgentEntity | typeof KbArticleEntity | typeof StorageFileEntity>;

/** Builds the partner API's statements; run them with rows / firstRow / affected of platform/db/typed.ts. */
export const partnerDb = typedQueries<PartnerTables>();
