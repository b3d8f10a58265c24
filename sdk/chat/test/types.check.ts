// Compile-time checks of the SDK's derived types. The root typecheck (tsc -p tsconfig.json) covers this file; it is
// never run. Each @ts-expect-error line must stay an error, or the typecheck fails.
import { ChatApiError } from '../src/index.js';
import type {
  ChatClient,
  ChatError,
  OperationId,
  PaginatedOperationId,
  ListOperationId,
  operations,
  RealtimeEvent,
  RealtimePayloadOf,
  Schemas,
} from '../src/index.js';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function assert<T extends true>(): T | void {}

// Every operation of the generated schema is a method, and nothing else is.
assert<Equal<Extract<keyof ChatClient, OperationId>, keyof operations>>();
assert<
  Equal<
    PaginatedOperationId,
    | 'listRooms'
    | 'listMessages'
    | 'listRoomMembers'
    | 'listJoinRequests'
    | 'listThreads'
    | 'listThreadMessages'
    | 'listChannels'
    | 'listChannelMembers'
    | 'listContactRequests'
    | 'listMyBroadcasts'
    | 'listSavedMessages'
    | 'listMentions'
    | 'searchMessages'
    | 'listReminders'
    | 'listScheduledMessages'
    | 'listBots'
    | 'listWebhooks'
  >
>();
assert<
  Equal<
    ListOperationId,
    | 'listRooms'
    | 'listMessages'
    | 'listModules'
    | 'listCustomerKeys'
    | 'listRoomMembers'
    | 'listJoinRequests'
    | 'listReactions'
    | 'listPinnedMessages'
    | 'forwardMessages'
    | 'listThreads'
    | 'listThreadMessages'
    | 'listChannels'
    | 'listChannelMembers'
    | 'listContactRequests'
    | 'listMyBroadcasts'
    | 'listLabels'
    | 'listSavedMessages'
    | 'listMentions'
    | 'searchMessages'
    | 'listReminders'
    | 'listScheduledMessages'
    | 'listBots'
    | 'listWebhooks'
    | 'listPresence'
    | 'listMessageReceipts'
  >
>();
assert<Equal<ChatError['details'], Schemas['Envelope.ErrorDetail'][] | undefined>>();

export async function typeChecks(chat: ChatClient): Promise<void> {
  const room = await chat.getRoom({ path: { id: 'x' } });
  const type: Schemas['RoomType'] = room.data.type;
  const requestId: string = room.meta.requestId;
  void type;
  void requestId;
  // @ts-expect-error single-resource meta has no cursor
  void room.meta.nextCursor;
  try {
    await chat.getRoom({ path: { id: 'x' } });
  } catch (error) {
    if (error instanceof ChatApiError) {
      const code: ChatError['code'] = error.code;
      const status: number = error.status;
      void code;
      void status;
    }
  }

  const page = await chat.listMessages({ path: { roomId: 'r' }, query: { before: 'c', limit: 10 } });
  const next: string | null = page.meta.nextCursor;
  const text: string | null | undefined = page.data[0]?.text;
  void next;
  void text;

  // Inputs are optional exactly when nothing is required.
  await chat.listRooms();
  await chat.getOrCreateSelfRoom();
  await chat.getHealth();
  // @ts-expect-error getRoom needs its path parameter
  await chat.getRoom();
  // @ts-expect-error the path parameter is called id
  await chat.getRoom({ path: { roomId: 'x' } });
  // @ts-expect-error sendMessage needs a body
  await chat.sendMessage({ path: { roomId: 'r' } });
  // @ts-expect-error text must be a string
  await chat.sendMessage({ path: { roomId: 'r' }, body: { text: 1 } });
  // @ts-expect-error not a creatable room type
  await chat.createRoom({ body: { type: 'PRIVATE', name: 'n', addMemberPolicy: 'ALL_MEMBERS' } });
  // @ts-expect-error limit is a number
  await chat.listRooms({ query: { limit: '10' } });
  // @ts-expect-error getOrCreateSelfRoom takes no body
  await chat.getOrCreateSelfRoom({ body: {} });

  // Only cursor-paginated operations can be walked.
  for await (const r of chat.items('listRooms')) {
    const name: string | null = r.name;
    void name;
  }
  // @ts-expect-error listModules answers in one page
  chat.pages('listModules');
  // @ts-expect-error listMessages needs its roomId
  chat.pages('listMessages');

  // The raw client is openapi-fetch, typed by the same paths.
  const raw = await chat.raw.GET('/api/v1/rooms/{id}', { params: { path: { id: 'x' } } });
  if (raw.data) {
    const id: string = raw.data.data.id;
    void id;
  }
}

// Realtime events are a union narrowed by topic, each with its declared payload (spec/chat/events.tsp).
export function realtimeTypeChecks(e: RealtimeEvent): void {
  if (e.topic === 'message.created') {
    const text: string | null | undefined = e.payload.message?.text;
    const seq: number = e.payload.seq;
    void text;
    void seq;
  }
  if (e.topic === 'reaction.added') {
    const counts: Array<{ emoji: string; count: number }> | undefined = e.payload.reactions;
    void counts;
  }
  const room: RealtimePayloadOf<'room.updated'>['room'] = undefined;
  void room;
  // @ts-expect-error a topic the document does not declare
  const unknown: RealtimePayloadOf<'message.unknown'> = {};
  void unknown;
}
