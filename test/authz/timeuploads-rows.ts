// Authorization rows of upload sessions, reminders and scheduled messages. Reminders and scheduled messages belong
// to their creator alone: every other account, whatever its role in the room, gets 404 as if they did not exist.
import { call } from '../support/platform.js';
import { refusal, type Outcome, type Persona } from './personas.js';
import { row, type Row } from './row.js';
import type { World } from './world.js';

const inADay = () => new Date(Date.now() + 86_400_000).toISOString();

/** Only the owner persona may; the others are told it does not exist. */
function ownerOnly(code: string): { allowed: Persona[]; outcomes: Partial<Record<Persona, Outcome>> } {
  const notFound = refusal(404, code);
  return { allowed: ['owner'], outcomes: { nonMember: notFound, member: notFound, admin: notFound, platformAdmin: notFound } };
}

async function created(w: World, path: string, body: unknown): Promise<string> {
  const res = await call(w.platform.chatUrl, 'POST', path, { token: w.owner.token, body });
  if (res.status !== 201) throw new Error(`world setup, POST ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.id as string;
}

const ownersReminder = (w: World) => created(w, '/api/v1/reminders', { text: "the owner's reminder", remindAt: inADay() });
const ownersScheduled = (w: World) =>
  created(w, `/api/v1/rooms/${w.roomId}/messages/scheduled`, { text: "the owner's message", sendAt: inADay() });

const uploads: Row[] = [
  row({
    operationId: 'createUploadSession',
    method: 'POST',
    path: '/api/v1/files/upload-session',
    audience: 'caller',
    request: () => ({ body: { fileName: 'notes.txt', contentType: 'text/plain', size: 10 } }),
  }),
];

const reminders: Row[] = [
  row({ operationId: 'listReminders', method: 'GET', path: '/api/v1/reminders', audience: 'caller', request: () => ({}) }),
  row({
    operationId: 'createReminder',
    method: 'POST',
    path: '/api/v1/reminders',
    audience: 'caller',
    request: () => ({ body: { text: 'stand-up', recurrence: { frequency: 'WEEKDAYS', time: '09:00', timeZone: 'Europe/Berlin' } } }),
  }),
  row({
    operationId: 'getReminder',
    method: 'GET',
    path: '/api/v1/reminders/{id}',
    audience: 'caller',
    ...ownerOnly('reminder_not_found'),
    setup: ownersReminder,
    request: (_w, _p, id) => ({ params: { id } }),
  }),
  row({
    operationId: 'updateReminder',
    method: 'PATCH',
    path: '/api/v1/reminders/{id}',
    audience: 'caller',
    ...ownerOnly('reminder_not_found'),
    setup: ownersReminder,
    request: (_w, p, id) => ({ params: { id }, body: { text: `changed by ${p}` } }),
  }),
  row({
    operationId: 'deleteReminder',
    method: 'DELETE',
    path: '/api/v1/reminders/{id}',
    audience: 'caller',
    ...ownerOnly('reminder_not_found'),
    setup: ownersReminder,
    request: (_w, _p, id) => ({ params: { id } }),
  }),
];

const scheduled: Row[] = [
  row({
    operationId: 'createScheduledMessage',
    method: 'POST',
    path: '/api/v1/rooms/{roomId}/messages/scheduled',
    audience: 'room',
    request: (w) => ({ params: { roomId: w.roomId }, body: { text: 'later', sendAt: inADay() } }),
  }),
  row({ operationId: 'listScheduledMessages', method: 'GET', path: '/api/v1/messages/scheduled', audience: 'caller', request: () => ({}) }),
  row({
    operationId: 'getScheduledMessage',
    method: 'GET',
    path: '/api/v1/messages/scheduled/{id}',
    audience: 'caller',
    ...ownerOnly('scheduled_message_not_found'),
    setup: ownersScheduled,
    request: (_w, _p, id) => ({ params: { id } }),
  }),
  row({
    operationId: 'updateScheduledMessage',
    method: 'PATCH',
    path: '/api/v1/messages/scheduled/{id}',
    audience: 'caller',
    ...ownerOnly('scheduled_message_not_found'),
    setup: ownersScheduled,
    request: (_w, p, id) => ({ params: { id }, body: { text: `changed by ${p}` } }),
  }),
  row({
    operationId: 'deleteScheduledMessage',
    method: 'DELETE',
    path: '/api/v1/messages/scheduled/{id}',
    audience: 'caller',
    ...ownerOnly('scheduled_message_not_found'),
    setup: ownersScheduled,
    request: (_w, _p, id) => ({ params: { id } }),
  }),
];

export const timeUploadsRows: Row[] = [...uploads, ...reminders, ...scheduled];
