// The personal organisation and poll operations through the SDK, over the real listener: typed calls, and the
// saved feed followed page by page with items().
import { startTestPlatform, type TestPlatform } from '../../../test/support/platform.js';
import { createChatClient, type ChatSuccess, type OperationId } from '../src/index.js';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform({ services: ['chat'] });
});
afterAll(async () => {
  await platform.stop();
});

/** The success itself (an error response throws ChatApiError); kept so each call reads as an expectation. */
function expectOk<R extends ChatSuccess<OperationId>>(result: R): R {
  return result;
}

test('drafts, labels, saved cards and a poll, all through the typed client', async () => {
  const tenant = await platform.tenant();
  const [alice, bob] = await Promise.all([tenant.account(), tenant.account()]);
  const chat = createChatClient({ baseUrl: platform.chatUrl, token: alice.token });
  const room = expectOk(await chat.createRoom({ body: { type: 'GROUP', name: 'SDK personal', memberIds: [bob.id] } })).data;

  expectOk(await chat.saveDraft({ path: { roomId: room.id }, body: { text: 'draft' } }));
  expect(expectOk(await chat.getDraft({ path: { roomId: room.id } })).data.text).toBe('draft');
  expect(expectOk(await chat.deleteDraft({ path: { roomId: room.id } })).data.status).toBe('deleted');

  const label = expectOk(await chat.createLabel({ body: { name: 'SDK', color: '#abcdef' } })).data;
  expectOk(await chat.setRoomLabels({ path: { roomId: room.id }, body: { labelIds: [label.id] } }));
  const labelled = expectOk(await chat.listRooms({ query: { labelId: label.id } })).data;
  expect(labelled.map((r) => [r.id, r.labelIds])).toEqual([[room.id, [label.id]]]);
  expect(expectOk(await chat.updateLabel({ path: { labelId: label.id }, body: { color: '#000000' } })).data.color).toBe('#000000');
  expect(expectOk(await chat.listLabels()).data).toEqual([expect.objectContaining({ id: label.id, roomCount: 1 })]);
  expectOk(await chat.deleteLabel({ path: { labelId: label.id } }));

  const sent: string[] = [];
  for (let i = 0; i < 5; i++) {
    const m = expectOk(await chat.sendMessage({ path: { roomId: room.id }, body: { text: `m${i}` } })).data;
    sent.push(m.id);
    expectOk(await chat.saveMessage({ body: { roomId: room.id, messageId: m.id } }));
    await new Promise((r) => setTimeout(r, 2));
  }
  const walked: string[] = [];
  for await (const card of chat.items('listSavedMessages', { query: { limit: 2 } })) walked.push(card.origin.messageId);
  expect(walked).toEqual([...sent].reverse());
  const first = expectOk(await chat.listSavedMessages({ query: { limit: 1 } })).data[0]!;
  expect(expectOk(await chat.updateSavedMessage({ path: { savedId: first.savedId }, body: { note: 'n' } })).data.note).toBe('n');
  expectOk(await chat.unsaveMessage({ path: { savedId: first.savedId } }));

  const poll = expectOk(await chat.createPoll({ path: { roomId: room.id }, body: { question: 'SDK?', options: ['yes', 'no'] } }));
  expect(poll.response.status).toBe(201);
  const voted = expectOk(
    await createChatClient({ baseUrl: platform.chatUrl, token: bob.token }).votePoll({
      path: { pollId: poll.data.id },
      body: { optionIds: [poll.data.options[0]!.id] },
    }),
  );
  expect(voted.data.totalVoters).toBe(1);
  expect(expectOk(await chat.closePoll({ path: { pollId: poll.data.id } })).data.closed).toBe(true);
  expect(expectOk(await chat.getPoll({ path: { pollId: poll.data.id } })).data.options.map((o) => o.votes)).toEqual([1, 0]);
});
