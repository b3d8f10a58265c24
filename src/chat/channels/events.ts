// Channel events: each payload names its audience (docs/events.md, "Channels, contacts, broadcasts") and is
// written in the transaction of the change it reports.
import type { SqlClient } from '../../platform/db/sql.js';
import type { Audience as RoomAudience } from '../rooms/events.js';

export type Audience = RoomAudience | { kind: 'channel'; channelId: string };

export const channelAudience = (channelId: string): Audience => ({ kind: 'channel', channelId });

export async function emit(client: SqlClient, topic: string, payload: Record<string, unknown>, audience: Audience): Promise<void> {
  await client.query('insert into outbox (topic, payload) values ($1, $2)', [topic, JSON.stringify({ ...payload, audience })]);
}
