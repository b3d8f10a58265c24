// How the chat writes its events: each in the transaction of the change it reports, with a declared topic, the
// topic's declared fields and the audience it reaches (docs/events.md). Statements that write their event in the
// same round trip as the change (send, reply, forward, mentions) use the SQL fragments instead.
import type { EntityManager } from '../../platform/db/orm.js';
import type { Queryable } from '../../platform/db/queryable.js';
import type { RawBuilder } from 'kysely';
import { appendOutbox, outboxTopic, writeOutbox } from '../../platform/outbox-writer.js';
import type { ChatTopic, EventFields } from './topics.js';

export { outboxInsertFrom } from '../../platform/outbox-writer.js';

/** Who an event reaches: a room's or a channel's members, the listed accounts, or the accounts of a broadcast's modules. */
export type Audience =
  | { kind: 'room'; roomId: string }
  | { kind: 'accounts'; accountIds: string[] }
  | { kind: 'channel'; channelId: string }
  | { kind: 'broadcast'; modules: string[] | 'all' };

export const roomAudience = (roomId: string): Audience => ({ kind: 'room', roomId });
export const accountsAudience = (accountIds: string[]): Audience => ({ kind: 'accounts', accountIds });
export const channelAudience = (channelId: string): Audience => ({ kind: 'channel', channelId });
export const broadcastAudience = (modules: string[] | 'all'): Audience => ({ kind: 'broadcast', modules });

/** Writes one event on `db`, which must be the transaction of the change; the stored payload is the fields plus `audience`. */
export async function emit<T extends ChatTopic>(db: Queryable, topic: T, fields: EventFields<T>, audience: Audience): Promise<void> {
  await writeOutbox(db, topic, { ...fields, audience });
}

/** The same, for a change made with MikroORM entities: written in the EntityManager's transaction. */
export async function emitThroughOrm<T extends ChatTopic>(
  em: EntityManager,
  topic: T,
  fields: EventFields<T>,
  audience: Audience,
): Promise<void> {
  await appendOutbox(em, topic, { ...fields, audience });
}

/** A declared topic as a literal of a typed statement that writes its event inside (with outboxInsertFrom). */
export function chatTopic(topic: ChatTopic): RawBuilder<string> {
  return outboxTopic(topic);
}
