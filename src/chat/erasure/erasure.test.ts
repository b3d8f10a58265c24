// Account erasure over the real listener and worker: the account is refused at once and its id stays taken, its
// personal data (PostgreSQL, presence in Redis, upload bytes in the media store) is gone, its messages carry the
// tombstone and a placeholder sender, a repeat answers the same job, and the scope of a module's token holds.
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newId } from '../../platform/ids.js';
import { count, eventually, expectError, expectOk } from '../../../test/helpers/expect.js';
import { chatFixtures } from '../../../test/helpers/chat-fixtures.js';
import { call, startTestPlatform, type TestAccount, type TestPlatform, type TestTenant } from '../../../test/support/platform.js';
import { tombstone } from './steps.js';

let platform: TestPlatform;
let tenant: TestTenant;
let admin: string;
let dataDir: string;
let fx: ReturnType<typeof chatFixtures>;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'erasure-test-'));
  platform = await startTestPlatform({ services: ['chat', 'workers'], dataDir });
  tenant = await platform.tenant();
  admin = await platform.adminToken();
  fx = chatFixtures(platform, tenant);
}, 120_000);
afterAll(async () => {
  await platform?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const erase = (accountId: string, messages: string, token = admin) =>
  call(platform.chatUrl, 'POST', `/api/v1/admin/accounts/${accountId}/erase`, { token, body: { messages } });
const getErasure = (id: string, token = admin) => call(platform.chatUrl, 'GET', `/api/v1/admin/erasures/${id}`, { token });
const one = async (sql: string, params: unknown[]) => (await platform.db.query(sql, params)).rows[0];
const done = (id: string) => eventually(async () => ((await getErasure(id)).body.data?.state === 'done' ? true : undefined));

/** An upload of the account with bytes in the file store, as a finished tus upload leaves them. */
async function upload(owner: TestAccount): Promise<string> {
  const id = newId();
  await platform.db.query(
    `insert into uploads (id, owner_id, file_name, content_type, declared_size, size, status, token_hash, expires_at, created_at, completed_at)
     values ($1, $2, 'a.txt', 'text/plain', 3, 3, 'COMPLETE', $3, now() + interval '1 hour', now(), now())`,
    [id, owner.id, Buffer.from(id)],
  );
  await mkdir(join(dataDir, 'uploads'), { recursive: true });
  await writeFile(join(dataDir, 'uploads', id), 'abc');
  return id;
}

/** A personal export of the account, built: its row and its archive in the file store. */
async function finishedExport(owner: TestAccount): Promise<string> {
  const started = await fx.api(owner, 'POST', '/me/exports');
  expectOk(started, 201);
  const id: string = started.body.data.id;
  await eventually(async () => ((await fx.api(owner, 'GET', `/me/exports/${id}`)).body.data?.state === 'done' ? true : undefined));
  await stat(join(dataDir, 'uploads', id));
  return id;
}

/** An account with something of every kind of personal data, in a room with another account. */
async function personWithData() {
  const [person, other] = await Promise.all([tenant.account(), tenant.account()]);
  const roomId = await fx.room(other, [person]);
  const mine = await fx.send(person, roomId, 'my secret');
  const theirs = await fx.send(other, roomId, 'hello');
  await platform.db.query(
    `update accounts set avatar_url = 'https://example.com/a.png', email = 'p@example.com', username = $2, team = 't', tags = '{x}' where id = $1`,
    [person.id, `u${person.id.slice(-12)}`],
  );
  expectOk(await fx.api(person, 'PUT', `/me/rooms/${roomId}/draft`, { text: 'draft' }));
  expectOk(await fx.api(person, 'POST', `/rooms/${roomId}/messages/${theirs.id}/reactions`, { emoji: '👍' }));
  await platform.db.query(
    `insert into labels (id, owner_id, name, color, created_at, updated_at) values ($1, $2, 'L', 'red', now(), now())`,
    [newId(), person.id],
  );
  expectOk(await fx.api(person, 'PUT', '/me/presence', { status: 'AWAY' }));
  expectOk(await fx.api(person, 'PUT', '/me/read-receipts', { shareReadReceipts: false }));
  const uploadId = await upload(person);
  const exportId = await finishedExport(person);
  return { person, other, roomId, mine, theirs, uploadId, exportId };
}

describe('anonymize', () => {
  test('removes the personal data, keeps the messages with the tombstone and refuses the account at once', async () => {
    const { person, other, roomId, mine, theirs, uploadId, exportId } = await personWithData();
    const res = await erase(person.id, 'anonymize');
    expectOk(res);
    expect(res.body.data).toMatchObject({ accountId: person.id, messages: 'anonymize', finishedAt: null });
    // refused from the answer on, before the job ran
    expectError(await fx.api(person, 'GET', '/rooms'), 401, 'account_unknown');
    await done(res.body.data.id);

    expect(await one('select * from accounts where id = $1', [person.id])).toMatchObject({
      display_name: 'Deleted account',
      avatar_url: null,
      email: null,
      username: null,
      team: null,
      tags: [],
      status: 'ERASED',
    });
    for (const table of ['drafts', 'saved_messages', 'message_reactions', 'receipt_settings'])
      expect(await count(platform.db, `select count(*) as n from ${table} where account_id = $1`, [person.id])).toBe(0);
    for (const table of ['labels', 'uploads', 'reminders'])
      expect(await count(platform.db, `select count(*) as n from ${table} where owner_id = $1`, [person.id])).toBe(0);
    await expect(stat(join(dataDir, 'uploads', uploadId))).rejects.toThrow();
    expect(await count(platform.db, 'select count(*) as n from account_exports where account_id = $1', [person.id])).toBe(0);
    await expect(stat(join(dataDir, 'uploads', exportId))).rejects.toThrow();
    const presence = await fx.api(other, 'GET', `/presence?accountIds=${person.id}`);
    expect(JSON.stringify(presence.body)).not.toContain('AWAY');

    expect(await one('select text, sender_id from messages where id = $1', [mine.id])).toEqual({ text: tombstone, sender_id: person.id });
    expect(await one('select text from messages where id = $1', [theirs.id])).toEqual({ text: 'hello' });
    const events = await platform.db.query(`select payload from outbox where topic = 'message.anonymized' and payload->>'roomId' = $1`, [
      roomId,
    ]);
    expect(events.rows.map((r) => r.payload)).toEqual([
      expect.objectContaining({ roomId, senderId: person.id, messageIds: [mine.id], text: tombstone }),
    ]);
    // the room's members see the placeholder sender
    const history = await fx.api(other, 'GET', `/rooms/${roomId}/messages`);
    expect(JSON.stringify(history.body)).not.toContain('my secret');
  });

  test('a repeat answers the same job and does nothing new; GET keeps only who, whom, when and the state', async () => {
    const { person } = await personWithData();
    const first = await erase(person.id, 'anonymize');
    expectOk(first);
    await done(first.body.data.id);
    const again = await erase(person.id, 'delete');
    expectOk(again);
    expect(again.body.data).toMatchObject({ id: first.body.data.id, messages: 'anonymize', state: 'done' });
    expect(await count(platform.db, 'select count(*) as n from erasures where account_id = $1', [person.id])).toBe(1);
    const got = await getErasure(first.body.data.id);
    expectOk(got);
    expect(Object.keys(got.body.data).sort()).toEqual(['accountId', 'erasedBy', 'finishedAt', 'id', 'messages', 'requestedAt', 'state']);
    expect(await one('select step, cursor, lease_until from erasures where id = $1', [first.body.data.id])).toEqual({
      step: null,
      cursor: null,
      lease_until: null,
    });
  });

  test('the erased id can be registered no more, nor administered', async () => {
    const person = await tenant.account();
    expectOk(await erase(person.id, 'anonymize'));
    const body = { id: person.id, moduleCode: tenant.moduleCode, customerAccountId: tenant.customer, displayName: 'Back' };
    expectError(await call(platform.chatUrl, 'POST', '/api/v1/accounts/register', { token: admin, body }), 409, 'account_erased');
    const status = await call(platform.chatUrl, 'PATCH', `/api/v1/accounts/${person.id}/status`, {
      token: admin,
      body: { status: 'ACTIVE' },
    });
    expectError(status, 404, 'account_not_found');
    expect(await one('select status from accounts where id = $1', [person.id])).toEqual({ status: 'ERASED' });
  });
});

describe('delete', () => {
  test('deletes the messages for good (message.expired, reason erasure) and the personal data; others keep theirs', async () => {
    const { person, other, roomId, mine, theirs, uploadId } = await personWithData();
    const res = await erase(person.id, 'delete');
    expectOk(res);
    expect(res.body.data.messages).toBe('delete');
    await done(res.body.data.id);
    expect(await count(platform.db, 'select count(*) as n from messages where sender_id = $1', [person.id])).toBe(0);
    expect(await one('select text from messages where id = $1', [theirs.id])).toEqual({ text: 'hello' });
    const events = await platform.db.query(`select payload from outbox where topic = 'message.expired' and payload->>'roomId' = $1`, [
      roomId,
    ]);
    expect(events.rows.map((r) => r.payload)).toEqual([expect.objectContaining({ roomId, messageIds: [mine.id], reason: 'erasure' })]);
    expect(await one('select display_name, email from accounts where id = $1', [person.id])).toEqual({
      display_name: 'Deleted account',
      email: null,
    });
    expect(await count(platform.db, 'select count(*) as n from drafts where account_id = $1', [person.id])).toBe(0);
    await expect(stat(join(dataDir, 'uploads', uploadId))).rejects.toThrow();
    expectError(await fx.api(person, 'GET', '/rooms'), 401, 'account_unknown');
    expectOk(await fx.api(other, 'GET', `/rooms/${roomId}/messages`));
  });
});

describe('refusals', () => {
  test('unknown account 404; another module 404 for its SERVICE token; a USER token 403; a bad mode 400', async () => {
    expectError(await erase(newId(), 'anonymize'), 404, 'account_not_found');
    const service = await tenant.account();
    await platform.db.query(`update accounts set account_type = 'SERVICE' where id = $1`, [service.id]);
    const foreign = await (await platform.tenant()).account();
    expectError(await erase(foreign.id, 'anonymize', service.token), 404, 'account_not_found');
    const user = await tenant.account();
    expectError(await erase(foreign.id, 'anonymize', user.token), 403, 'account_admin_required');
    expectError(await erase(foreign.id, 'shred'), 400, 'validation_failed', 'body.messages');
    expect(await one('select status from accounts where id = $1', [foreign.id])).toEqual({ status: 'ACTIVE' });

    const own = await tenant.account();
    const res = await erase(own.id, 'anonymize', service.token);
    expectOk(res);
    expect(res.body.data.erasedBy).toBe(service.id);
    expectError(await getErasure(res.body.data.id, (await (await platform.tenant()).account()).token), 403, 'account_admin_required');
    expectError(await getErasure(newId()), 404, 'erasure_not_found');
  });
});
