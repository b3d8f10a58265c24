// One fresh "world" per row of the authorization table, built over the real listener: a tenant with an owner,
// an admin, a member, a non-member, a deactivated member and a spare account; a GROUP room under
// ALL_MEMBERS_WITH_APPROVAL (so join requests can exist) with a message by the owner and one by the member; and
// on demand the other things operations point at (a forward source room, a thread, join requests, pins, a snap).
// Everything whose API exists in this branch goes through the API; the rest is inserted directly, each place
// saying so, and can move to the API once the operation is merged.
import { randomUUID } from 'node:crypto';
import { generateKeyPair, type CryptoKey } from 'jose';
import { newId } from '../../src/platform/ids.js';
import { call, type TestAccount, type TestPlatform, type TestTenant } from '../support/platform.js';
import { fingerprint, type Fingerprint, type WorldScope } from './fingerprint.js';
import type { Persona } from './personas.js';
import type { ChatSpec } from './spec.js';

export interface World {
  platform: TestPlatform;
  tenant: TestTenant;
  /** Short random tag for names the world creates (module codes, room names). */
  tag: string;
  owner: TestAccount;
  admin: TestAccount;
  member: TestAccount;
  nonMember: TestAccount;
  deactivated: TestAccount;
  /** An active account of the tenant in no room: target of account and private-room operations. */
  spare: TestAccount;
  platformAdmin: TestAccount;
  /** A module code nobody uses yet (createModule). */
  spareModule: string;
  roomId: string;
  ownerMessageId: string;
  memberMessageId: string;
  /** The bearer token a persona sends; undefined for anonymous. */
  tokenOf(persona: Persona): string | undefined;
  /** The account a persona acts as (unknownKey claims the member's id); undefined for anonymous. */
  accountOf(persona: Persona): TestAccount | undefined;
  /** Another active account of the tenant, in no room. */
  account(): Promise<TestAccount>;
  send(who: TestAccount, roomId: string, text: string): Promise<string>;
  /** A second room (owner, admin, member) with one message by the owner: the source of forwards. */
  sourceRoom(): Promise<{ roomId: string; messageId: string }>;
  /** A thread in the world's room: a root by the owner and one reply by the member. */
  thread(): Promise<{ rootId: string; replyId: string }>;
  /** A new pending join request for a new account, asked by the member. */
  joinRequest(): Promise<string>;
  setAddMemberPolicy(policy: 'ADMIN_ONLY' | 'ALL_MEMBERS' | 'ALL_MEMBERS_WITH_APPROVAL'): Promise<void>;
  pinInRoom(messageId: string): Promise<void>;
  pinPersonally(accountId: string, messageId: string): Promise<void>;
  snap(messageId: string): Promise<void>;
  hide(accountId: string, messageId: string): Promise<void>;
  react(accountId: string, messageId: string, emoji: string): Promise<void>;
  follow(accountId: string, rootId: string): Promise<void>;
  fingerprint(): Promise<Fingerprint>;
}

let strangerKey: Promise<CryptoKey> | undefined;
/** A key no module registered: tokens signed with it name a kid nobody knows. */
const stranger = () => (strangerKey ??= generateKeyPair('ES256').then((k) => k.privateKey));

async function must<T>(what: string, res: Promise<{ status: number; body: any }>, status: number): Promise<T> {
  const r = await res;
  if (r.status !== status) throw new Error(`world setup, ${what}: expected ${status}, got ${r.status} ${JSON.stringify(r.body)}`);
  return r.body?.data as T;
}

const memo = <T>(fn: () => Promise<T>): (() => Promise<T>) => {
  let p: Promise<T> | undefined;
  return () => (p ??= fn());
};

export async function buildWorld(platform: TestPlatform, spec: ChatSpec): Promise<World> {
  const { db, chatUrl } = platform;
  const tag = randomUUID().replace(/-/g, '').slice(0, 10);
  const { rows: outboxRows } = await db.query<{ id: string }>('select coalesce(max(id), 0) as id from outbox');
  const scope: WorldScope = {
    accountIds: [],
    roomIds: [],
    modules: [`w${tag}`],
    customers: [],
    outboxAfter: Number(outboxRows[0]!.id),
  };

  const [tenant, adminTenant] = await Promise.all([platform.tenant(), platform.tenant({ moduleCode: platform.config.platformModule })]);
  scope.modules.push(tenant.moduleCode);
  scope.customers.push(tenant.customer, adminTenant.customer);
  const account = async (): Promise<TestAccount> => {
    const a = await tenant.account();
    scope.accountIds.push(a.id);
    return a;
  };
  const [owner, admin, member, nonMember, deactivated, spare, platformAdminAccount] = await Promise.all([
    account(),
    account(),
    account(),
    account(),
    account(),
    account(),
    adminTenant.account(),
  ]);
  scope.accountIds.push(platformAdminAccount.id);
  const platformAdmin = { id: platformAdminAccount.id, token: await adminTenant.sign({ pa: true }, { subject: platformAdminAccount.id }) };
  const unknownKeyToken = await tenant.sign({}, { subject: member.id, kid: `unknown-${tag}`, privateKey: await stranger() });

  const send = async (who: TestAccount, roomId: string, text: string, extra: Record<string, unknown> = {}): Promise<string> =>
    (
      await must<{ id: string }>(
        'send',
        call(chatUrl, 'POST', `/api/v1/rooms/${roomId}/messages`, { token: who.token, body: { text, ...extra } }),
        201,
      )
    ).id;
  const createRoom = async (name: string, memberIds: string[], policy: string): Promise<string> => {
    const room = await must<{ id: string }>(
      'create room',
      call(chatUrl, 'POST', '/api/v1/rooms', { token: owner.token, body: { type: 'GROUP', name, addMemberPolicy: policy, memberIds } }),
      201,
    );
    scope.roomIds.push(room.id);
    return room.id;
  };

  const roomId = await createRoom(`Authz ${tag}`, [admin.id, member.id, deactivated.id], 'ALL_MEMBERS_WITH_APPROVAL');
  const [ownerMessageId, memberMessageId] = await Promise.all([
    send(owner, roomId, 'from the owner'),
    send(member, roomId, 'from the member'),
    // The role operation arrives with the members branch: promote directly.
    db.query(`update room_members set role = 'ADMIN' where room_id = $1 and account_id = $2`, [roomId, admin.id]),
  ]);
  // Deactivated after joining, through the administration API (so any status cache is invalidated as in production).
  await must(
    'deactivate',
    call(chatUrl, 'PATCH', `/api/v1/accounts/${deactivated.id}/status`, { token: platformAdmin.token, body: { status: 'DEACTIVATED' } }),
    200,
  );

  const personaAccounts: Record<Persona, TestAccount | undefined> = {
    anonymous: undefined,
    unknownKey: { id: member.id, token: unknownKeyToken },
    deactivated,
    nonMember,
    member,
    admin,
    owner,
    platformAdmin,
  };

  const world: World = {
    platform,
    tenant,
    tag,
    owner,
    admin,
    member,
    nonMember,
    deactivated,
    spare,
    platformAdmin,
    spareModule: `w${tag}`,
    roomId,
    ownerMessageId,
    memberMessageId,
    tokenOf: (p) => personaAccounts[p]?.token,
    accountOf: (p) => personaAccounts[p],
    account,
    send: (who, room, text) => send(who, room, text),
    sourceRoom: memo(async () => {
      const id = await createRoom(`Source ${tag}`, [admin.id, member.id], 'ALL_MEMBERS');
      return { roomId: id, messageId: await send(owner, id, 'worth forwarding') };
    }),
    thread: memo(async () => {
      const rootId = await send(owner, roomId, 'thread root');
      if (spec.sendTakesThreadRoot) return { rootId, replyId: await send(member, roomId, 'thread reply', { threadRootId: rootId }) };
      // Replies arrive with the threads branch: insert one as the send would (next room seq, root counters).
      const replyId = newId();
      await db.query(
        `with bump as (update rooms set last_seq = last_seq + 1, last_activity_at = now() where id = $1 returning last_seq),
              reply as (insert into messages (id, room_id, seq, sender_id, type, text, thread_root_id, created_at)
                        select $2, $1, last_seq, $3, 'TEXT', 'thread reply', $4, now() from bump returning id, created_at)
         update messages set reply_count = reply_count + 1, last_reply_at = reply.created_at, last_reply_id = reply.id
           from reply where messages.id = $4`,
        [roomId, replyId, member.id, rootId],
      );
      return { rootId, replyId };
    }),
    async joinRequest() {
      // Join requests arrive with the members branch: a pending one as a member's add would leave it.
      const joiner = await account();
      const id = newId();
      await db.query(
        `insert into join_requests (id, room_id, account_id, requested_by, status, created_at) values ($1, $2, $3, $4, 'PENDING', now())`,
        [id, roomId, joiner.id, member.id],
      );
      return id;
    },
    async setAddMemberPolicy(policy) {
      // updateRoom arrives with the rooms branch.
      await db.query('update rooms set add_member_policy = $2 where id = $1', [roomId, policy]);
    },
    // Pins, snaps, hides, reactions and follows arrive with the messages and threads branches: inserted directly.
    async pinInRoom(messageId) {
      await db.query(
        `insert into room_pins (room_id, message_id, pinned_by, pinned_at) values ($1, $2, $3, now()) on conflict do nothing`,
        [roomId, messageId, owner.id],
      );
    },
    async pinPersonally(accountId, messageId) {
      await db.query(
        `insert into personal_pins (account_id, message_id, room_id, pinned_at) values ($1, $2, $3, now()) on conflict do nothing`,
        [accountId, messageId, roomId],
      );
    },
    async snap(messageId) {
      await db.query('update rooms set snap_message_id = $2, snapped_by = $3, snapped_at = now() where id = $1', [
        roomId,
        messageId,
        owner.id,
      ]);
    },
    async hide(accountId, messageId) {
      await db.query(
        `insert into message_hides (account_id, message_id, room_id, hidden_at) values ($1, $2, $3, now()) on conflict do nothing`,
        [accountId, messageId, roomId],
      );
    },
    async react(accountId, messageId, emoji) {
      await db.query(
        `insert into message_reactions (message_id, emoji, account_id, created_at) values ($1, $2, $3, now()) on conflict do nothing`,
        [messageId, emoji, accountId],
      );
    },
    async follow(accountId, rootId) {
      await db.query(
        `insert into thread_follows (root_id, account_id, room_id, state, updated_at) values ($1, $2, $3, 'FOLLOWING', now())
         on conflict (root_id, account_id) do update set state = 'FOLLOWING'`,
        [rootId, accountId, roomId],
      );
    },
    fingerprint: () => fingerprint(db, scope),
  };
  return world;
}
