// Rooms with members of each role, messages and outbox counts for the message and pin tests.
import { call, type TestAccount, type TestPlatform, type TestTenant } from '../support/platform.js';
import { count, type CallResult } from './expect.js';

export interface RoomCast {
  roomId: string;
  owner: TestAccount;
  admin: TestAccount;
  member: TestAccount;
  /** An account of the same tenant that is not in the room. */
  outsider: TestAccount;
}

export function chatFixtures(platform: TestPlatform, tenant: TestTenant) {
  const base = platform.chatUrl;
  const api = (who: TestAccount, method: string, path: string, body?: unknown): Promise<CallResult> =>
    call(base, method, `/api/v1${path}`, { token: who.token, ...(body === undefined ? {} : { body }) });

  async function room(owner: TestAccount, members: TestAccount[] = [], admins: TestAccount[] = []): Promise<string> {
    const res = await api(owner, 'POST', '/rooms', { type: 'GROUP', name: 'Fixture', memberIds: [...members, ...admins].map((a) => a.id) });
    if (res.status !== 201) throw new Error(`room: ${res.status} ${JSON.stringify(res.body)}`);
    const roomId: string = res.body.data.id;
    // No role-change operation is needed here: the tests are about messages, so roles are set in the table.
    for (const a of admins)
      await platform.db.query(`update room_members set role = 'ADMIN' where room_id = $1 and account_id = $2`, [roomId, a.id]);
    return roomId;
  }

  return {
    api,
    room,
    /** A room with one account of each role and one outsider. */
    async cast(): Promise<RoomCast> {
      const [owner, admin, member, outsider] = await Promise.all([tenant.account(), tenant.account(), tenant.account(), tenant.account()]);
      return { roomId: await room(owner, [member], [admin]), owner, admin, member, outsider };
    },
    async send(who: TestAccount, roomId: string, text = 'hello'): Promise<{ id: string; text: string; createdAt: string }> {
      const res = await api(who, 'POST', `/rooms/${roomId}/messages`, { text });
      if (res.status !== 201) throw new Error(`send: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.data;
    },
    /** Outbox rows of a topic about one message (or, with no message, about one room). */
    events(topic: string, id: { messageId?: string; roomId?: string }): Promise<number> {
      return id.messageId
        ? count(platform.db, "select count(*) as n from outbox where topic = $1 and payload->>'messageId' = $2", [topic, id.messageId])
        : count(platform.db, "select count(*) as n from outbox where topic = $1 and payload->>'roomId' = $2", [topic, id.roomId]);
    },
    async payloads(topic: string, messageId: string): Promise<Record<string, unknown>[]> {
      const { rows } = await platform.db.query<{ payload: Record<string, unknown> }>(
        "select payload from outbox where topic = $1 and payload->>'messageId' = $2 order by id",
        [topic, messageId],
      );
      return rows.map((r) => r.payload);
    },
    /** Every outbox row that names the message, whatever its topic. */
    allEvents(messageId: string): Promise<number> {
      return count(platform.db, "select count(*) as n from outbox where payload->>'messageId' = $1", [messageId]);
    },
  };
}
