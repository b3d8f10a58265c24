// The authorization table: every operation of generated/openapi/chat.json, called by every persona (no token,
// a token of an unknown key, a deactivated member, a non-member, member, admin, owner, platform administrator)
// in a fresh world each, over the real listener. Refused calls must change nothing the world owns; a
// non-member learns nothing about a room (404 room_not_found everywhere). The rows are in test/authz/chat-rows.ts.
import { expectedReport, runRow, type RowReport } from '../authz/run-row.js';
import { chatRows as coreRows } from '../authz/chat-rows.js';
import { channelsRows } from '../authz/channels-rows.js';
import { personalRows } from '../authz/personal-rows.js';
import { mentionRows } from '../authz/mentions-rows.js';
import { realtimeRows } from '../authz/realtime-rows.js';
import { presenceRows } from '../authz/presence-rows.js';
import { botRows } from '../authz/bots-rows.js';
import { retentionRows } from '../authz/retention-rows.js';
import { erasureRows } from '../authz/erasure-rows.js';
import { receiptsRows } from '../authz/receipts-rows.js';
import type { Row } from '../authz/row.js';
import { timeUploadsRows } from '../authz/timeuploads-rows.js';
import { loadChatSpec, routeShape } from '../authz/spec.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';

/**
 * Rows of operations the spec does not declare yet are skipped while the branches are apart. Once
 * they are merged, set this to false: such a row then fails, as a row naming a missing operation should.
 */
const ALLOW_ROWS_AHEAD_OF_SPEC = false;
/** The operations OPS.md assigns to the branches. */
const OPS_OPERATIONS = [
  ...['updateRoom', 'deleteRoom', 'getOrCreateReminderRoom', 'archiveRoom', 'unarchiveRoom', 'muteRoom', 'unmuteRoom', 'leaveRoom'],
  ...['updateRoomPreferences', 'markRoomRead', 'listRoomMembers', 'addRoomMembers', 'changeRoomMemberRole', 'listJoinRequests'],
  ...['approveJoinRequest', 'rejectJoinRequest', 'editMessage', 'hideMessage', 'restoreMessage', 'recallMessage', 'listReactions'],
  ...['addReaction', 'removeReaction', 'forwardMessages', 'pinMessage', 'unpinMessage', 'listPinnedMessages', 'snapMessage', 'getSnap'],
  ...['removeSnap', 'listThreads', 'listThreadMessages', 'followThread', 'unfollowThread', 'markThreadRead', 'listThreadFollowers'],
  'getUnreadThreadCount',
];
/** Rows played at the same time (each in its own world); the machine has two cores. */
const PARALLEL_ROWS = 4;

/** The rows of every feature: chat-rows.ts and one file per later feature. */
const chatRows: Row[] = [
  ...coreRows,
  ...channelsRows,
  ...personalRows,
  ...mentionRows,
  ...realtimeRows,
  ...presenceRows,
  ...timeUploadsRows,
  ...botRows,
  ...retentionRows,
  ...erasureRows,
  ...receiptsRows,
];
const spec = await loadChatSpec();
const inSpec = (row: Row) => spec.operations.has(row.operationId);
/** The operations a row may name ahead of the spec: those of OPS.md while the allowance lasts, else none. */
const allowedAhead: string[] = ALLOW_ROWS_AHEAD_OF_SPEC ? OPS_OPERATIONS : [];

/** Where a row of a spec operation calls it otherwise than the spec says: method and route, and security. */
function specMismatches(row: Row): string[] {
  const op = spec.operations.get(row.operationId)!;
  const problems: string[] = [];
  if (op.method !== row.method || routeShape(op.path) !== routeShape(row.path)) {
    problems.push(`${row.name}: row says ${row.method} ${row.path}, spec says ${op.method} ${op.path}`);
  }
  if (op.public !== (row.audience === 'public')) problems.push(`${row.name}: spec public=${op.public}, row audience ${row.audience}`);
  return problems;
}

let platform: TestPlatform;
type Settled = { report: RowReport } | { error: unknown };
const played = new Map<Row, Promise<Settled>>();

beforeAll(async () => {
  // Each drain right after its commit: a persona's call has its relayed writes (bot updates) done before the next
  // persona's fingerprint is taken, which a drain waiting for its interval would not promise.
  platform = await startTestPlatform({ services: ['chat'], relayIntervalMs: 0 });
  // Start every row now, PARALLEL_ROWS at a time; each test awaits its own.
  const queue = chatRows.filter(inSpec);
  const slots = new Map<Row, (s: Settled) => void>();
  for (const row of queue) played.set(row, new Promise((resolve) => slots.set(row, resolve)));
  const worker = async () => {
    for (let row = queue.shift(); row; row = queue.shift()) {
      const settle = slots.get(row)!;
      await runRow(platform, spec, row).then(
        (report) => settle({ report }),
        (error: unknown) => settle({ error }),
      );
    }
  };
  void Promise.all(Array.from({ length: PARALLEL_ROWS }, worker));
});
afterAll(async () => {
  await Promise.all(played.values());
  await platform?.stop();
});

test('every operation of the chat spec has a row', () => {
  const covered = new Set(chatRows.map((r) => r.operationId));
  const missing = [...spec.operations.keys()].filter((id) => !covered.has(id)).sort();
  expect(missing).toEqual([]);
});

test('every row calls its operation with the method, route and security of the spec', () => {
  const mismatches = chatRows.filter(inSpec).flatMap(specMismatches);
  expect(mismatches).toEqual([]);
});

test('every row names an operation of the spec (or, while the allowance lasts, one of OPS.md)', () => {
  const ahead = [...new Set(chatRows.filter((r) => !inSpec(r)).map((r) => r.operationId))];
  expect(ahead.filter((id) => !allowedAhead.includes(id))).toEqual([]);
});

describe('persona outcomes per operation', () => {
  for (const row of chatRows) {
    (inSpec(row) ? test : test.skip)(
      row.name,
      async () => {
        const settled = await played.get(row)!;
        if ('error' in settled) throw settled.error;
        expect(settled.report).toEqual(expectedReport(row));
      },
      60_000,
    );
  }
});
