// What the Bot API file tests share: bytes and images to send, multipart calls at Telegram's path shape, a user's
// upload through the chat's upload API, and what a bot has stored (to assert that a refusal stored nothing).
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Config } from '../../../src/platform/config/types.js';
import { call, startTestPlatform, type TestAccount, type TestPlatform, type TestTenant } from '../../support/platform.js';
import { count } from '../../helpers/expect.js';
import { confirmJoined, createBot, groupWith, type BotAnswer, type TestBot } from '../../helpers/bots.js';

export const bytes = (n: number, seed = 7) => Buffer.from(Array.from({ length: n }, (_, i) => (i * seed) % 251));

/** A PNG's signature and IHDR chunk: all a reader of its size needs. */
export function png(width: number, height: number): Buffer {
  const head = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(head, 0);
  head.writeUInt32BE(13, 8);
  head.write('IHDR', 12, 'latin1');
  head.writeUInt32BE(width, 16);
  head.writeUInt32BE(height, 20);
  head[24] = 8;
  head[25] = 6;
  return Buffer.concat([head, bytes(200)]);
}

export type FilePart = { data: Buffer; name: string; type?: string };

/** A multipart Bot API call, at Telegram's path shape. */
export async function multipart(
  platform: TestPlatform,
  token: string,
  method: string,
  fields: Record<string, string | FilePart>,
): Promise<BotAnswer> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value === 'string') form.set(name, value);
    else form.set(name, new Blob([value.data], value.type ? { type: value.type } : {}), value.name);
  }
  const res = await fetch(`${platform.chatUrl}/bot${token}/${method}`, { method: 'POST', body: form });
  return { status: res.status, body: await res.json(), headers: res.headers };
}

/**
 * A data folder of the file's own platform: the stored-files count of storage() then sees only this file's uploads,
 * not those of files running beside it.
 */
export const ownDataDir = (): string => mkdtempSync(join(tmpdir(), 'bot-files-'));

const storedFiles = (platform: TestPlatform) => {
  const dir = join(platform.config.dataDir, 'uploads');
  return existsSync(dir) ? readdirSync(dir).length : 0;
};

/** What the bot has stored: other suites share the database, so only the bot's own rows are counted. */
export async function storage(platform: TestPlatform, botAccountId: string): Promise<{ uploads: number; messages: number; files: number }> {
  return {
    uploads: await count(platform.db, 'select count(*) as n from uploads where owner_id = $1', [botAccountId]),
    messages: await count(platform.db, 'select count(*) as n from messages where sender_id = $1', [botAccountId]),
    files: storedFiles(platform),
  };
}

/** A user's file through the chat's upload API: an upload session, then tus creation and one PATCH. */
export async function userUpload(
  platform: TestPlatform,
  who: TestAccount,
  data: Buffer,
  fileName: string,
  contentType: string,
): Promise<string> {
  const created = await call(platform.chatUrl, 'POST', '/api/v1/files/upload-session', {
    token: who.token,
    body: { fileName, contentType, size: data.length },
  });
  if (created.status !== 200 && created.status !== 201) throw new Error(`session: ${created.status} ${JSON.stringify(created.body)}`);
  const session = created.body.data;
  const started = await fetch(session.uploadUrl, { method: 'POST', headers: { ...session.headers, 'Upload-Length': String(data.length) } });
  expect(started.status).toBe(201);
  const patched = await fetch(new URL(started.headers.get('location')!, session.uploadUrl), {
    method: 'PATCH',
    headers: { ...session.headers, 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' },
    body: data,
  });
  expect(patched.status).toBe(204);
  return session.uploadId;
}

/** A new tenant's user Alice and a bot, in a group of Alice's. */
export async function botWithAlice(
  platform: TestPlatform,
): Promise<{ tenant: TestTenant; alice: TestAccount; bot: TestBot; roomId: string }> {
  const tenant = await platform.tenant();
  const alice = await tenant.account({ displayName: 'Alice' });
  const bot = await createBot(platform, tenant);
  const roomId = await groupWith(platform, alice, [bot.accountId]);
  await confirmJoined(platform, bot.token);
  return { tenant, alice, bot, roomId };
}

/** A platform of the chat and its workers for the test file, started before its tests and stopped after them. */
export function useFilesPlatform(overrides: Partial<Config>): () => TestPlatform {
  let platform: TestPlatform | undefined;
  beforeAll(async () => {
    platform = await startTestPlatform({ services: ['chat', 'workers'], dataDir: ownDataDir(), ...overrides });
  });
  afterAll(async () => {
    await platform?.stop();
  });
  return () => platform!;
}

// Media headers as the files' formats lay them out: ISO media boxes and Ogg pages.
export const box = (type: string, ...content: Buffer[]) => {
  const body = Buffer.concat(content);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(body.length + 8, 0);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, body]);
};

export function mvhd(version: 0 | 1, timescale: number, units: number): Buffer {
  const b = Buffer.alloc(version === 1 ? 108 : 96);
  b[0] = version;
  if (version === 1) {
    b.writeUInt32BE(timescale, 20);
    b.writeBigUInt64BE(BigInt(units), 24);
  } else {
    b.writeUInt32BE(timescale, 12);
    b.writeUInt32BE(units, 16);
  }
  return box('mvhd', b);
}

export function tkhd(version: 0 | 1, width: number, height: number): Buffer {
  const b = Buffer.alloc(version === 1 ? 96 : 84);
  b[0] = version;
  const at = version === 1 ? 88 : 76;
  b.writeUInt32BE(width * 65536, at);
  b.writeUInt32BE(height * 65536, at + 4);
  return box('tkhd', b);
}

export const ftyp = box('ftyp', Buffer.from('isom\0\0\0\0isomavc1', 'latin1'));

export function oggPage(granule: bigint, packet: Buffer): Buffer {
  const head = Buffer.alloc(28);
  head.write('OggS', 0, 'latin1');
  head.writeBigInt64LE(granule, 6);
  head[26] = 1;
  head[27] = packet.length;
  return Buffer.concat([head, packet]);
}

/** A small MP4: the file type, a movie header, one video track of the size given, and some media data. */
export const mp4 = (seconds: number, width: number, height: number): Buffer =>
  Buffer.concat([ftyp, box('moov', mvhd(0, 1000, seconds * 1000), box('trak', tkhd(0, width, height))), box('mdat', bytes(500))]);
