// Authorization rows of the personal organisation (drafts, labels, saved messages) and poll operations. Labels and
// saved cards belong to one account: anyone else naming them gets the same 404 as for an unknown id. Polls are
// room-scoped: a non-member (a platform administrator included) gets 404 room_not_found.
import { call } from '../support/platform.js';
import { systemClock } from '../../src/platform/clock.js';
import { mediaStore } from '../../src/core/media/store.js';
import { runExports } from '../../src/chat/exports/job.js';
import { refusal, type Persona } from './personas.js';
import { row, type Row } from './row.js';
import type { World } from './world.js';

const MEMBERS: Persona[] = ['member', 'admin', 'owner'];
const LABEL_NOT_FOUND = refusal(404, 'label_not_found');
const SAVED_NOT_FOUND = refusal(404, 'saved_not_found');

async function must<T>(what: string, res: Promise<{ status: number; body: any }>, status = 200): Promise<T> {
  const r = await res;
  if (r.status !== status) throw new Error(`personal row setup, ${what}: expected ${status}, got ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.data as T;
}

const api = (w: World, p: Persona, method: string, path: string, body?: unknown) =>
  call(w.platform.chatUrl, method, path, { token: w.accountOf(p)!.token, ...(body === undefined ? {} : { body }) });

const labelOf = async (w: World, p: Persona, name: string) =>
  (await must<{ id: string }>('label', api(w, p, 'POST', '/api/v1/me/labels', { name, color: '#336699' }))).id;

/** A label of each room member persona. */
async function labelsPerMember(w: World): Promise<Partial<Record<Persona, string>>> {
  const entries = await Promise.all(MEMBERS.map(async (p) => [p, await labelOf(w, p, `label of ${p}`)] as const));
  return Object.fromEntries(entries);
}

const savedCardOfMember = async (w: World) =>
  (await must<{ savedId: string }>('save', api(w, 'member', 'POST', '/api/v1/me/saved', { roomId: w.roomId, messageId: w.ownerMessageId })))
    .savedId;

const pollBy = async (w: World, p: Persona) =>
  must<{ id: string; options: Array<{ id: string }> }>(
    'poll',
    api(w, p, 'POST', `/api/v1/rooms/${w.roomId}/polls`, { question: 'Authorization?', options: ['yes', 'no'] }),
    201,
  );

/** Everyone but the label's (or card's) owner, the member, gets the not-found of an unknown id. */
const onlyTheMember = (notFound: ReturnType<typeof refusal>) => ({
  allowed: ['member'] as Persona[],
  outcomes: { nonMember: notFound, admin: notFound, owner: notFound, platformAdmin: notFound },
});

const drafts: Row[] = [
  row({
    operationId: 'getDraft',
    method: 'GET',
    path: '/api/v1/me/rooms/{roomId}/draft',
    audience: 'room',
    request: (w) => ({ params: { roomId: w.roomId } }),
  }),
  row({
    operationId: 'saveDraft',
    method: 'PUT',
    path: '/api/v1/me/rooms/{roomId}/draft',
    audience: 'room',
    request: (w, p) => ({ params: { roomId: w.roomId }, body: { text: `draft of ${p}` } }),
  }),
  row({
    operationId: 'deleteDraft',
    method: 'DELETE',
    path: '/api/v1/me/rooms/{roomId}/draft',
    audience: 'room',
    setup: async (w) => {
      await Promise.all(MEMBERS.map((p) => must('draft', api(w, p, 'PUT', `/api/v1/me/rooms/${w.roomId}/draft`, { text: 'to delete' }))));
    },
    request: (w) => ({ params: { roomId: w.roomId } }),
  }),
];

const labels: Row[] = [
  row({ operationId: 'listLabels', method: 'GET', path: '/api/v1/me/labels', audience: 'caller', request: () => ({}) }),
  row({
    operationId: 'createLabel',
    method: 'POST',
    path: '/api/v1/me/labels',
    audience: 'caller',
    request: (_w, p) => ({ body: { name: `made by ${p}`, color: '#00FF00' } }),
  }),
  row({
    operationId: 'updateLabel',
    method: 'PATCH',
    path: '/api/v1/me/labels/{labelId}',
    audience: 'caller',
    ...onlyTheMember(LABEL_NOT_FOUND),
    setup: (w) => labelOf(w, 'member', "the member's"),
    request: (_w, p, labelId) => ({ params: { labelId }, body: { name: `renamed by ${p}` } }),
  }),
  row({
    operationId: 'deleteLabel',
    method: 'DELETE',
    path: '/api/v1/me/labels/{labelId}',
    audience: 'caller',
    ...onlyTheMember(LABEL_NOT_FOUND),
    setup: (w) => labelOf(w, 'member', "the member's"),
    request: (_w, _p, labelId) => ({ params: { labelId } }),
  }),
  row({
    operationId: 'setRoomLabels',
    method: 'PUT',
    path: '/api/v1/me/rooms/{roomId}/labels',
    audience: 'room',
    setup: labelsPerMember,
    request: (w, p, mine) => ({ params: { roomId: w.roomId }, body: { labelIds: mine[p] ? [mine[p]] : [] } }),
  }),
];

const saved: Row[] = [
  row({
    operationId: 'listSavedMessages',
    method: 'GET',
    path: '/api/v1/me/saved',
    audience: 'caller',
    request: () => ({ query: { limit: '10' } }),
  }),
  row({
    operationId: 'saveMessage',
    method: 'POST',
    path: '/api/v1/me/saved',
    audience: 'room',
    request: (w, p) => ({ body: { roomId: w.roomId, messageId: w.ownerMessageId, note: `saved by ${p}` } }),
  }),
  row({
    operationId: 'updateSavedMessage',
    method: 'PATCH',
    path: '/api/v1/me/saved/{savedId}',
    audience: 'caller',
    ...onlyTheMember(SAVED_NOT_FOUND),
    setup: savedCardOfMember,
    request: (_w, p, savedId) => ({ params: { savedId }, body: { note: `note by ${p}` } }),
  }),
  row({
    operationId: 'unsaveMessage',
    method: 'DELETE',
    path: '/api/v1/me/saved/{savedId}',
    audience: 'caller',
    ...onlyTheMember(SAVED_NOT_FOUND),
    setup: savedCardOfMember,
    request: (_w, _p, savedId) => ({ params: { savedId } }),
  }),
];

const polls: Row[] = [
  row({
    operationId: 'createPoll',
    method: 'POST',
    path: '/api/v1/rooms/{roomId}/polls',
    audience: 'room',
    request: (w, p) => ({ params: { roomId: w.roomId }, body: { question: `asked by ${p}`, options: ['a', 'b'] } }),
  }),
  row({
    operationId: 'getPoll',
    method: 'GET',
    path: '/api/v1/polls/{pollId}',
    audience: 'room',
    setup: (w) => pollBy(w, 'owner'),
    request: (_w, _p, poll) => ({ params: { pollId: poll.id } }),
  }),
  row({
    operationId: 'votePoll',
    method: 'POST',
    path: '/api/v1/polls/{pollId}/votes',
    audience: 'room',
    setup: (w) => pollBy(w, 'owner'),
    request: (_w, _p, poll) => ({ params: { pollId: poll.id }, body: { optionIds: [poll.options[0]!.id] } }),
  }),
  row({
    operationId: 'closePoll',
    variant: "the owner's poll",
    method: 'POST',
    path: '/api/v1/polls/{pollId}/close',
    audience: 'room',
    allowed: ['admin', 'owner'], // a member closes only its own polls; closing again is idempotent
    setup: (w) => pollBy(w, 'owner'),
    request: (_w, _p, poll) => ({ params: { pollId: poll.id } }),
  }),
  row({
    operationId: 'closePoll',
    variant: "the member's poll",
    method: 'POST',
    path: '/api/v1/polls/{pollId}/close',
    audience: 'room',
    setup: (w) => pollBy(w, 'member'),
    request: (_w, _p, poll) => ({ params: { pollId: poll.id } }),
  }),
];

const search: Row[] = [
  row({
    operationId: 'searchMessages',
    method: 'GET',
    path: '/api/v1/search/messages',
    audience: 'caller',
    request: () => ({ query: { q: 'hello' } }),
  }),
  row({
    operationId: 'searchMessages',
    variant: 'in one room',
    method: 'GET',
    path: '/api/v1/search/messages',
    audience: 'room',
    request: (w) => ({ query: { q: 'hello', roomId: w.roomId } }),
  }),
];

const EXPORT_NOT_FOUND = refusal(404, 'export_not_found');

/** Ends the persona's queued or running export, so that it may start another (this listener runs no export job). */
const endPendingExports = async (w: World, p: Persona) => {
  const who = w.accountOf(p);
  if (who)
    await w.platform.db.query(`update account_exports set state = 'failed' where account_id = $1 and state in ('queued', 'running')`, [
      who.id,
    ]);
};

/** An export of the member's, built here by the export job's run (the listener under test runs no workers). */
async function builtExportOfMember(w: World): Promise<string> {
  await endPendingExports(w, 'member');
  const { id } = await must<{ id: string }>('export', api(w, 'member', 'POST', '/api/v1/me/exports'), 201);
  const media = mediaStore(w.platform.config.media, w.platform.config.dataDir);
  for (let run = 0; run < 20; run += 1) {
    if ((await w.platform.db.query(`select 1 from account_exports where id = $1 and state = 'done'`, [id])).rowCount) return id;
    await runExports({ sql: w.platform.db, clock: systemClock, media });
  }
  throw new Error(`personal row setup: the export ${id} was not built`);
}

const exportsRows: Row[] = [
  row({
    operationId: 'createExport',
    method: 'POST',
    path: '/api/v1/me/exports',
    audience: 'caller',
    prepare: (w, p) => endPendingExports(w, p),
    request: () => ({}),
  }),
  row({
    operationId: 'getExport',
    method: 'GET',
    path: '/api/v1/me/exports/{exportId}',
    audience: 'caller',
    ...onlyTheMember(EXPORT_NOT_FOUND),
    setup: async (w) => {
      await endPendingExports(w, 'member');
      return (await must<{ id: string }>('export', api(w, 'member', 'POST', '/api/v1/me/exports'), 201)).id;
    },
    request: (_w, _p, id) => ({ params: { exportId: id } }),
  }),
  row({
    operationId: 'downloadExport',
    method: 'GET',
    path: '/api/v1/me/exports/{exportId}/download',
    audience: 'caller',
    ...onlyTheMember(EXPORT_NOT_FOUND),
    setup: builtExportOfMember,
    request: (_w, _p, id) => ({ params: { exportId: id } }),
  }),
];

export const personalRows: Row[] = [...drafts, ...labels, ...saved, ...search, ...polls, ...exportsRows];
