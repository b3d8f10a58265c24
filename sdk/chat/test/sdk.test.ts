// Drives the real chat listener through the SDK: every call below goes over HTTP to the platform the test run
// starts, and every result is the SDK's typed value.
import { readFile } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { exportSPKI, generateKeyPair, SignJWT } from 'jose';
import { startTestPlatform, testConfig, type TestAccount, type TestPlatform } from '../../../test/support/platform.js';
import {
  ChatApiError,
  createChatClient,
  cursorParams,
  operationRoutes,
  UNEXPECTED_RESPONSE,
  type ChatClient,
  type ChatError,
  type ChatSuccess,
  type OperationId,
} from '../src/index.js';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(async () => {
  await platform.stop();
});

const clientFor = (account: { token: string }): ChatClient => createChatClient({ baseUrl: platform.chatUrl, token: account.token });

/** The success itself: an error response would have thrown. Kept so every call below reads as an expectation. */
function expectOk<R extends ChatSuccess<OperationId>>(result: R): R {
  return result;
}

/** The ChatApiError a call throws, failing the test when it succeeds or fails otherwise. */
async function expectError(call: Promise<unknown>): Promise<ChatError> {
  const outcome = await call.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  if (!('error' in outcome)) throw new Error('expected a ChatApiError, the call succeeded');
  if (!(outcome.error instanceof ChatApiError)) throw outcome.error;
  return outcome.error;
}

async function twoMembers(): Promise<{ alice: TestAccount; bob: TestAccount }> {
  const tenant = await platform.tenant();
  return { alice: await tenant.account({ displayName: 'Alice' }), bob: await tenant.account({ displayName: 'Bob' }) };
}

type RouteRow = { method: string; path: string; public: boolean; cursors: string[] };

/** Every operation of generated/openapi/chat.json: its route, whether it is public and its cursor parameters. */
async function documentRoutes(): Promise<Record<string, RouteRow>> {
  const doc = JSON.parse(await readFile(new URL('../../../generated/openapi/chat.json', import.meta.url), 'utf8')) as {
    security?: unknown[];
    paths: Record<
      string,
      Record<
        string,
        { operationId?: string; security?: unknown[]; parameters?: Array<{ in?: string; name?: string; schema?: { $ref?: string } }> }
      >
    >;
  };
  const fromDoc: Record<string, RouteRow> = {};
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!op.operationId) continue;
      const security = op.security ?? doc.security ?? [];
      fromDoc[op.operationId] = {
        method,
        path,
        public: security.some((s) => Object.keys(s as object).length === 0),
        cursors: (op.parameters ?? [])
          .filter((p) => p.in === 'query' && p.schema?.$ref === '#/components/schemas/Platform.cursor')
          .map((p) => p.name!),
      };
    }
  }
  return fromDoc;
}

/** The same rows from the SDK's route and pagination tables. */
function sdkRoutes(): Record<string, RouteRow> {
  return Object.fromEntries(
    Object.entries(operationRoutes).map(([id, r]) => [
      id,
      {
        method: r.method,
        path: r.path,
        public: 'public' in r && r.public === true,
        cursors: [...((cursorParams as Record<string, readonly string[]>)[id] ?? [])],
      },
    ]),
  );
}

/** A message's text, '' for one without text. */
const textOf = (m: { text?: string | null }): string => m.text ?? '';

describe('route table', () => {
  // The typecheck proves every operation of the generated types has a route; this proves the routes and the
  // pagination table agree with the published document the types came from.
  test('matches generated/openapi/chat.json operation by operation', async () => {
    const fromDoc = await documentRoutes();
    const fromSdk = sdkRoutes();
    expect(fromSdk).toEqual(fromDoc);
    expect(Object.keys(fromDoc)).toHaveLength(136);
  });
});

describe('rooms and messages', () => {
  test('creates a group room, reads it back and lets an initial member in', async () => {
    const { alice, bob } = await twoMembers();
    const chat = clientFor(alice);
    const created = expectOk(
      await chat.createRoom({
        body: { type: 'GROUP', name: 'SDK group', description: 'made by the SDK', addMemberPolicy: 'ALL_MEMBERS', memberIds: [bob.id] },
      }),
    );
    expect(created.response.status).toBe(201);
    expect(created.data).toMatchObject({
      type: 'GROUP',
      name: 'SDK group',
      description: 'made by the SDK',
      myRole: 'OWNER',
      memberCount: 2,
      createdBy: alice.id,
    });
    expect(created.meta.requestId).toBe(created.response.headers.get('x-request-id'));

    const asBob = expectOk(await clientFor(bob).getRoom({ path: { id: created.data.id } }));
    expect(asBob.data).toMatchObject({ id: created.data.id, myRole: 'MEMBER', memberCount: 2 });

    const withMembers = expectOk(await chat.getRoom({ path: { id: created.data.id } }));
    expect(withMembers.data.id).toBe(created.data.id);
  });

  test('private and self rooms are get-or-create', async () => {
    const { alice, bob } = await twoMembers();
    const first = expectOk(await clientFor(alice).getOrCreatePrivateRoom({ body: { accountId: bob.id } }));
    expect(first.data).toMatchObject({ type: 'PRIVATE', name: null, memberCount: 2 });
    const fromBob = expectOk(await clientFor(bob).getOrCreatePrivateRoom({ body: { accountId: alice.id } }));
    expect(fromBob.data.id).toBe(first.data.id);

    const self = expectOk(await clientFor(alice).getOrCreateSelfRoom());
    expect(self.data).toMatchObject({ type: 'SELF', memberCount: 1, myRole: 'OWNER' });
    expect(self.data.id).not.toBe(first.data.id);
    const again = expectOk(await clientFor(alice).getOrCreateSelfRoom());
    expect(again.data.id).toBe(self.data.id);
    const bobsSelf = expectOk(await clientFor(bob).getOrCreateSelfRoom());
    expect(bobsSelf.data.id).not.toBe(self.data.id);
  });

  test('sends, gets one message and scrolls back through every page', async () => {
    const { alice, bob } = await twoMembers();
    const chat = clientFor(alice);
    const room = expectOk(
      await chat.createRoom({ body: { type: 'GROUP', name: 'Scroll', addMemberPolicy: 'ALL_MEMBERS', memberIds: [bob.id] } }),
    ).data;
    const texts = Array.from({ length: 7 }, (_, i) => `m${i + 1}`);
    const sent = [];
    for (const text of texts) {
      const result = expectOk(await chat.sendMessage({ path: { roomId: room.id }, body: { text } }));
      expect(result.response.status).toBe(201);
      expect(result.data).toMatchObject({ roomId: room.id, senderId: alice.id, type: 'TEXT', text, recalled: false });
      sent.push(result.data);
    }

    const third = sent[2]!;
    const one = expectOk(await clientFor(bob).getMessage({ path: { roomId: room.id, messageId: third.id } }));
    expect(one.data).toEqual(third);

    // pages(): newest page first, each page chronological, nextCursor fed back through `before`.
    const pageTexts: string[][] = [];
    const hasMore: boolean[] = [];
    for await (const page of chat.pages('listMessages', { path: { roomId: room.id }, query: { limit: 3 } })) {
      const ok = expectOk(page);
      pageTexts.push(ok.data.map(textOf));
      hasMore.push(ok.meta.hasMore);
    }
    expect(pageTexts).toEqual([['m5', 'm6', 'm7'], ['m2', 'm3', 'm4'], ['m1']]);
    expect(hasMore).toEqual([true, true, false]);

    // items(): the same walk, flattened.
    const all: string[] = [];
    for await (const message of chat.items('listMessages', { path: { roomId: room.id }, query: { limit: 2 } })) all.push(textOf(message));
    expect(all).toEqual(['m6', 'm7', 'm4', 'm5', 'm2', 'm3', 'm1']);
    expect(new Set(all)).toEqual(new Set(texts));
  });

  test('a walk started with `after` keeps scrolling forward', async () => {
    const { alice } = await twoMembers();
    const chat = clientFor(alice);
    const room = expectOk(await chat.createRoom({ body: { type: 'GROUP', name: 'Forward' } })).data;
    for (const text of ['a', 'b', 'c', 'd', 'e']) expectOk(await chat.sendMessage({ path: { roomId: room.id }, body: { text } }));
    const newest = expectOk(await chat.listMessages({ path: { roomId: room.id }, query: { limit: 4 } }));
    expect(newest.data.map((m) => m.text)).toEqual(['b', 'c', 'd', 'e']);
    expect(newest.meta.hasMore).toBe(true);
    const cursor = newest.meta.nextCursor!; // points at 'b', the oldest of that page

    const forward: string[][] = [];
    for await (const page of chat.pages('listMessages', { path: { roomId: room.id }, query: { after: cursor, limit: 2 } })) {
      forward.push(expectOk(page).data.map(textOf));
    }
    expect(forward).toEqual([['c', 'd'], ['e']]);
  });

  test('lists every room of the caller across pages through `cursor`', async () => {
    const { alice, bob } = await twoMembers();
    const chat = clientFor(alice);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push(expectOk(await chat.createRoom({ body: { type: 'GROUP', name: `Room ${i}`, addMemberPolicy: 'ALL_MEMBERS' } })).data.id);
    // Bob's room must not show up in Alice's list.
    expectOk(await clientFor(bob).createRoom({ body: { type: 'GROUP', name: 'Not Alice', addMemberPolicy: 'ALL_MEMBERS' } }));

    let pageCount = 0;
    const seen: string[] = [];
    for await (const page of chat.pages('listRooms', { query: { limit: 2 } })) {
      const ok = expectOk(page);
      pageCount++;
      expect(ok.data.length).toBeLessThanOrEqual(2);
      seen.push(...ok.data.map((r) => r.id));
    }
    expect(pageCount).toBe(3);
    expect(seen).toHaveLength(5);
    expect(new Set(seen)).toEqual(new Set(ids));
    // Most recently active first.
    expect(seen).toEqual([...ids].reverse());

    const viaItems: string[] = [];
    for await (const room of chat.items('listRooms', { query: { limit: 4 } })) viaItems.push(room.id);
    expect(viaItems).toEqual(seen);
  });
});

describe('errors are thrown as ChatApiError', () => {
  test('a room the caller is not a member of answers 404 room_not_found', async () => {
    const { alice } = await twoMembers();
    const outsider = await (await platform.tenant()).account();
    const room = expectOk(
      await clientFor(alice).createRoom({ body: { type: 'GROUP', name: 'Private club', addMemberPolicy: 'ADMIN_ONLY' } }),
    ).data;

    const error = await expectError(clientFor(outsider).getRoom({ path: { id: room.id } }));
    expect(error).toBeInstanceOf(ChatApiError);
    expect(error).toMatchObject({ status: 404, code: 'room_not_found' });
    expect(error.message).toEqual(expect.any(String));
    expect(error.requestId).toBeTruthy();
    expect(error.requestId).toBe(error.response.headers.get('x-request-id'));

    const send = await expectError(clientFor(outsider).sendMessage({ path: { roomId: room.id }, body: { text: 'let me in' } }));
    expect(send).toMatchObject({ status: 404, code: 'room_not_found' });

    // items() cannot return a value, so it throws the typed error.
    const walk = async () => {
      for await (const m of clientFor(outsider).items('listMessages', { path: { roomId: room.id } })) void m;
    };
    await expect(walk()).rejects.toBeInstanceOf(ChatApiError);
    await expect(walk()).rejects.toMatchObject({ status: 404, code: 'room_not_found' });
  });

  test('validation errors come back as 400 validation_failed with details', async () => {
    const { alice } = await twoMembers();
    const chat = clientFor(alice);
    const room = expectOk(await chat.createRoom({ body: { type: 'GROUP', name: 'Valid', addMemberPolicy: 'ALL_MEMBERS' } })).data;

    // The SDK's types refuse these bodies, so they are forced through as a JavaScript caller could send them.
    const wrongType = await expectError(chat.sendMessage({ path: { roomId: room.id }, body: { text: 42 as unknown as string } }));
    expect(wrongType).toMatchObject({ status: 400, code: 'validation_failed' });
    expect(wrongType.details).toEqual([{ location: 'body.text', message: expect.any(String) }]);
    const unknownField = await expectError(
      chat.createRoom({ body: { type: 'GROUP', name: 'x', addMemberPolicy: 'ALL_MEMBERS', colour: 'red' } as never }),
    );
    expect(unknownField).toMatchObject({ status: 400, code: 'validation_failed' });
    expect(unknownField.details).toEqual(expect.arrayContaining([expect.objectContaining({ location: 'body.colour' })]));

    const limit = await expectError(chat.listMessages({ path: { roomId: room.id }, query: { limit: 0 } }));
    expect(limit).toMatchObject({ status: 400, code: 'validation_failed' });
    expect(limit.details).toEqual(expect.arrayContaining([expect.objectContaining({ location: 'query.limit' })]));

    const badId = await expectError(chat.getRoom({ path: { id: 'not-a-uuid' } }));
    expect(badId).toMatchObject({ status: 400, code: 'validation_failed' });
    expect(badId.details?.map((d) => d.location)).toContain('path.id');

    // Checked by the handler rather than the schema: same typed shape.
    const both = await expectError(chat.listMessages({ path: { roomId: room.id }, query: { before: 'x', after: 'y' } }));
    expect(both).toMatchObject({
      status: 400,
      code: 'validation_failed',
      details: [{ location: 'query.after', message: expect.any(String) }],
    });
  });

  test('a missing, malformed or foreign token answers 401', async () => {
    const { alice } = await twoMembers();
    const missing = await expectError(createChatClient({ baseUrl: platform.chatUrl, token: '' }).listRooms());
    expect(missing).toMatchObject({ status: 401, code: 'unauthenticated' });
    expect(missing.details).toEqual([expect.objectContaining({ location: 'header.authorization' })]);

    const malformed = await expectError(createChatClient({ baseUrl: platform.chatUrl, token: 'not-a-jwt' }).listRooms());
    expect(malformed).toMatchObject({ status: 401, code: 'token_malformed' });

    // Well-formed, but signed by a key nobody registered.
    const { privateKey } = await generateKeyPair('ES256');
    const forged = await new SignJWT({ cid: 'nobody' })
      .setProtectedHeader({ alg: 'ES256', kid: 'k-forged' })
      .setIssuer('nomodule')
      .setSubject(alice.id)
      .setAudience(testConfig().jwtAudience)
      .setExpirationTime('1h')
      .sign(privateKey);
    const foreign = await expectError(createChatClient({ baseUrl: platform.chatUrl, token: forged }).getOrCreateSelfRoom());
    expect(foreign.status).toBe(401);
    expect(foreign.code).not.toBe('unauthenticated');

    // A per-call Authorization header overrides the client's token.
    const overridden = expectOk(
      await createChatClient({ baseUrl: platform.chatUrl, token: 'not-a-jwt' }).listRooms(undefined, {
        headers: { authorization: `Bearer ${alice.token}` },
      }),
    );
    expect(Array.isArray(overridden.data)).toBe(true);
  });

  test('error bodies that are not the chat envelope still become ChatApiError', async () => {
    const { alice } = await twoMembers();
    const chat = createChatClient({
      baseUrl: platform.chatUrl,
      token: alice.token,
      maxRetries: 0,
      fetch: async () =>
        new Response('<html>bad gateway</html>', { status: 502, statusText: 'Bad Gateway', headers: { 'content-type': 'text/html' } }),
    });
    const error = await expectError(chat.listRooms());
    expect(error).toMatchObject({ status: 502, code: UNEXPECTED_RESPONSE, requestId: '' });
    expect(error.message).toContain('HTTP 502 Bad Gateway');
    expect(error.message).toContain('bad gateway');
  });
});

describe('retries', () => {
  /** A fetch that answers `statuses` in turn (then the real server), counting the attempts. */
  function scripted(statuses: number[]) {
    const seen: Request[] = [];
    const fetch = async (request: Request) => {
      seen.push(request.clone());
      const status = statuses[seen.length - 1];
      if (status === undefined) return globalThis.fetch(request);
      return new Response(
        JSON.stringify({ error: { code: 'internal_error', message: 'try again' }, meta: { requestId: `r${seen.length}` } }),
        {
          status,
          headers: { 'content-type': 'application/json', ...(status === 429 ? { 'retry-after': '2' } : {}) },
        },
      );
    };
    return { fetch, seen };
  }

  test('a read is repeated after 5xx and after 429 with its Retry-After; a write without an Idempotency-Key only after 429', async () => {
    const { alice } = await twoMembers();
    const waits: number[] = [];
    const sleep = async (ms: number) => void waits.push(ms);

    const read = scripted([503, 429]);
    const reader = createChatClient({ baseUrl: platform.chatUrl, token: alice.token, fetch: read.fetch, sleep });
    expectOk(await reader.listRooms());
    expect(read.seen).toHaveLength(3);
    expect(waits[1]).toBe(2000);

    const self = expectOk(await clientFor(alice).getOrCreateSelfRoom()).data;
    const write = scripted([503]);
    const writer = createChatClient({ baseUrl: platform.chatUrl, token: alice.token, fetch: write.fetch, sleep });
    expect(await expectError(writer.sendMessage({ path: { roomId: self.id }, body: { text: 'once' } }))).toMatchObject({
      status: 503,
      requestId: 'r1',
    });
    expect(write.seen).toHaveLength(1);

    // With an Idempotency-Key the write goes again, the same key on both attempts.
    const keyed = scripted([503]);
    const keyedWriter = createChatClient({ baseUrl: platform.chatUrl, token: alice.token, fetch: keyed.fetch, sleep });
    const sent = expectOk(
      await keyedWriter.sendMessage({ path: { roomId: self.id }, body: { text: 'twice' } }, { idempotencyKey: randomUUID() }),
    );
    expect(sent.data.text).toBe('twice');
    expect(keyed.seen).toHaveLength(2);
    expect(keyed.seen[0]!.headers.get('idempotency-key')).toBe(keyed.seen[1]!.headers.get('idempotency-key'));
  });
});

describe('token provider', () => {
  test('is asked once per request, so a rotated token is picked up', async () => {
    const { alice } = await twoMembers();
    const tokens = ['not-a-jwt', alice.token, alice.token];
    let calls = 0;
    const chat = createChatClient({
      baseUrl: platform.chatUrl,
      getToken: async () => {
        const token = tokens[Math.min(calls, tokens.length - 1)]!;
        calls++;
        return token;
      },
    });
    expect(await expectError(chat.listRooms())).toMatchObject({ status: 401, code: 'token_malformed' });
    expect(calls).toBe(1);

    const self = expectOk(await chat.getOrCreateSelfRoom());
    expect(calls).toBe(2);
    expectOk(await chat.sendMessage({ path: { roomId: self.data.id }, body: { text: 'refreshed' } }));
    expect(calls).toBe(3);

    // Pagination asks per page too.
    for (let i = 0; i < 2; i++) expectOk(await chat.sendMessage({ path: { roomId: self.data.id }, body: { text: `more ${i}` } }));
    expect(calls).toBe(5);
    let pageCount = 0;
    for await (const page of chat.pages('listMessages', { path: { roomId: self.data.id }, query: { limit: 1 } })) {
      expectOk(page);
      pageCount++;
    }
    expect(pageCount).toBe(3);
    expect(calls).toBe(8);

    // Health checks are public in the spec: no token is asked for, none is sent.
    const health = expectOk(await chat.getHealth());
    expect(health.data.status).toBe('ok');
    expect(health.meta).toBeUndefined();
    const ready = expectOk(await chat.getReadiness());
    expect(ready.data).toEqual({ status: 'ok', checks: { database: 'ok', redis: 'ok' } });
    expect(calls).toBe(8);
  });

  test('the raw openapi-fetch client shares the auth middleware', async () => {
    const { alice } = await twoMembers();
    let calls = 0;
    const chat = createChatClient({ baseUrl: platform.chatUrl, getToken: () => (calls++, alice.token) });
    const { data, error, response } = await chat.raw.POST('/api/v1/rooms/self');
    expect(error).toBeUndefined();
    expect(response.status).toBe(200);
    expect(data?.data.type).toBe('SELF');
    expect(calls).toBe(1);
  });
});

describe('platform administration', () => {
  test('an administrator creates a module, registers a key and an account that can then chat', async () => {
    const admin = createChatClient({ baseUrl: platform.chatUrl, getToken: () => platform.adminToken() });
    const code = `sdk${randomUUID().slice(0, 8)}`;
    const customer = `cust-${randomUUID().slice(0, 8)}`;

    const module = expectOk(await admin.createModule({ body: { code, name: 'SDK module' } }));
    expect(module.response.status).toBe(201);
    expect(module.data).toMatchObject({ code, name: 'SDK module', customers: [] });
    const duplicate = await expectError(admin.createModule({ body: { code, name: 'again' } }));
    expect(duplicate).toMatchObject({ status: 409, code: 'module_exists' });

    const { privateKey, publicKey } = await generateKeyPair('ES256');
    const key = expectOk(
      await admin.registerCustomerKey({
        path: { code, customerAccountId: customer },
        body: { kid: 'sdk-key-1', algorithm: 'ES256', publicKeyPem: await exportSPKI(publicKey) },
      }),
    );
    expect(key.data).toMatchObject({ moduleCode: code, customerAccountId: customer, kid: 'sdk-key-1', algorithm: 'ES256' });
    const keys = expectOk(await admin.listCustomerKeys({ path: { code, customerAccountId: customer } }));
    expect(keys.data.map((k) => k.kid)).toEqual(['sdk-key-1']);
    expect(keys.meta).toMatchObject({ hasMore: false, nextCursor: null });
    const refreshed = expectOk(await admin.refreshCustomerKeys({ path: { code, customerAccountId: customer } }));
    expect(refreshed.response.status).toBe(200);

    const modules = expectOk(await admin.listModules());
    expect(modules.data.find((m) => m.code === code)).toMatchObject({ customers: [customer] });

    const accountId = randomUUID();
    const registered = expectOk(
      await admin.registerAccount({
        body: {
          id: accountId,
          moduleCode: code,
          customerAccountId: customer,
          displayName: 'Sam',
          accountType: 'USER',
          metadata: { team: 'core', tags: ['a', 'b'] },
        },
      }),
    );
    expect(registered.data).toMatchObject({
      id: accountId,
      status: 'ACTIVE',
      metadata: { team: 'core', department: null, role: null, tags: ['a', 'b'] },
    });

    const metadata = expectOk(await admin.updateAccountMetadata({ path: { id: accountId }, body: { team: null, role: 'lead' } }));
    expect(metadata.data.metadata).toEqual({ team: null, department: null, role: 'lead', tags: ['a', 'b'] });

    // The new account, with a token signed by the key the administrator registered, can use the chat API...
    const samToken = await new SignJWT({ cid: customer })
      .setProtectedHeader({ alg: 'ES256', kid: 'sdk-key-1' })
      .setIssuer(code)
      .setSubject(accountId)
      .setAudience(testConfig().jwtAudience)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(privateKey);
    const sam = createChatClient({ baseUrl: platform.chatUrl, token: samToken });
    expectOk(await sam.getOrCreateSelfRoom());

    // ... until it is deactivated, which applies to the very next call.
    const status = expectOk(await admin.updateAccountStatus({ path: { id: accountId }, body: { status: 'DEACTIVATED' } }));
    expect(status.data.status).toBe('DEACTIVATED');
    expect(await expectError(sam.getOrCreateSelfRoom())).toMatchObject({ status: 403, code: 'account_deactivated' });

    expect(await expectError(admin.updateAccountStatus({ path: { id: randomUUID() }, body: { status: 'ACTIVE' } }))).toMatchObject({
      status: 404,
      code: 'account_not_found',
    });
  });

  test('administration needs a platform administrator', async () => {
    const { alice } = await twoMembers();
    const error = await expectError(clientFor(alice).listModules());
    expect(error).toMatchObject({ status: 403, code: 'platform_admin_required' });
  });
});
