// The statements of a partition's connected channels.
import { sql } from 'kysely';
import { affected, firstRow, rows, type Runner } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import type { Partition } from '../crm/queries.js';
import { coreDb } from '../tables.js';
import type { RowPage } from './queries.js';
import { channelColumns, type ChannelChecked, type ChannelKind, type ChannelRow, type ChannelStatus } from './views.js';

/** The partition's channels with the row's columns. */
const channelsOf = (part: Partition) =>
  coreDb
    .selectFrom('inbox_channels')
    .select(channelColumns)
    .$narrowType<ChannelChecked>()
    .where('workspace_id', '=', part.workspaceId)
    .where('environment', '=', part.environment);

/** Newest first, filtered; limit + 1 rows at most. */
export async function channelsPage(
  db: Runner,
  part: Partition,
  filters: { kind?: string; status?: string },
  page: RowPage,
): Promise<ChannelRow[]> {
  return rows(
    db,
    channelsOf(part)
      .$if(filters.kind !== undefined, (qb) => qb.where('kind', '=', filters.kind!))
      .$if(filters.status !== undefined, (qb) => qb.where('status', '=', filters.status!))
      .$if(page.beforeId !== undefined, (qb) => qb.where('id', '<', page.beforeId!))
      .orderBy('id', 'desc')
      .limit(page.limit + 1),
  );
}

export async function channelById(db: Runner, part: Partition, id: string): Promise<ChannelRow | undefined> {
  return firstRow(db, channelsOf(part).where('id', '=', id));
}

export async function insertChannel(
  db: Runner,
  part: Partition,
  channel: { id: string; kind: ChannelKind; name: string; status: ChannelStatus },
  now: Date,
): Promise<ChannelRow | undefined> {
  return firstRow(
    db,
    coreDb
      .insertInto('inbox_channels')
      .values({
        id: channel.id,
        workspace_id: part.workspaceId,
        environment: part.environment,
        kind: channel.kind,
        name: channel.name,
        status: channel.status,
        created_at: now,
        updated_at: now,
      })
      .returning(channelColumns)
      .$narrowType<ChannelChecked>(),
  );
}

/** Sets the name and the status that are not null; undefined when the channel is not in the partition. */
export async function updateChannel(
  db: Runner,
  part: Partition,
  id: string,
  change: { name: string | null; status: ChannelStatus | null },
  now: Date,
): Promise<ChannelRow | undefined> {
  const { name, status } = change;
  return firstRow(
    db,
    coreDb
      .updateTable('inbox_channels')
      .set({
        name: sql<string>`coalesce(${name}::text, name)`,
        status: sql<string>`coalesce(${status}::text, status)`,
        // Only a real change moves updated_at.
        updated_at: sql<Date>`case when coalesce(${name}::text, name) is distinct from name
            or coalesce(${status}::text, status) is distinct from status then ${now}::timestamptz else updated_at end`,
      })
      .where('id', '=', id)
      .where('workspace_id', '=', part.workspaceId)
      .where('environment', '=', part.environment)
      .returning(channelColumns)
      .$narrowType<ChannelChecked>(),
  );
}

/** How many channels were deleted (0 when it is not in the partition). */
export async function deleteChannel(db: Runner, part: Partition, id: string): Promise<number> {
  return affected(
    db,
    coreDb
      .deleteFrom('inbox_channels')
      .where('id', '=', id)
      .where('workspace_id', '=', part.workspaceId)
      .where('environment', '=', part.environment),
  );
}

const part: Partition = { workspaceId: example.id, environment: 'live' };

export const examples: QueryExamples = {
  channelsPage: (db) => channelsPage(db, part, { kind: 'email', status: 'active' }, { limit: 50, beforeId: example.otherId }),
  channelById: (db) => channelById(db, part, example.otherId),
  insertChannel: (db) => insertChannel(db, part, { id: example.otherId, kind: 'email', name: example.text, status: 'active' }, example.at),
  updateChannel: (db) => updateChannel(db, part, example.otherId, { name: example.text, status: 'paused' }, example.at),
  deleteChannel: (db) => deleteChannel(db, part, example.otherId),
};
