// A person chatting with an example bot through the chat API: Alice's private room with a fresh bot whose token the
// example runs with. Every wait is on the message or event it expects, bounded, never a fixed sleep.
import { call, type TestAccount, type TestPlatform } from '../../../support/platform.js';
import { createBot, privateRoomWith, say, waitForEvent, waitForMessage, type TestBot } from '../../../helpers/bots.js';
import { withFields } from '../../../helpers/match.js';
import { runExample, type RunningExample } from './run-example.js';

export interface ExampleChat {
  platform: TestPlatform;
  alice: TestAccount;
  bot: TestBot;
  roomId: string;
  example: RunningExample;
  /** Alice sends a text into the room. */
  say(text: string): Promise<any>;
  /**
   * The bot's message of the room with these fields, as Alice sees it. Without an id it is a message not returned
   * before, so a text the bot sends twice is waited for twice.
   */
  botMessage(fields: Record<string, unknown>): Promise<any>;
  /** Alice presses the inline button with this label on the message; answers the callback_answered event. */
  press(message: any, label: string): Promise<any>;
  /** Stops the example and asserts that it logged no failures but the expected ones. */
  finish(expectedErrors?: RegExp[]): Promise<void>;
}

/** How long a reply may take: generous, since the machine running the suite may be busy with other work. */
const replyWithinMs = 20_000;

export async function exampleChat(platform: TestPlatform, file: string, workdir?: string): Promise<ExampleChat> {
  const tenant = await platform.tenant();
  const alice = await tenant.account({ displayName: 'Alice' });
  const bot = await createBot(platform, tenant);
  const roomId = await privateRoomWith(platform, alice, bot.accountId);
  const example = await runExample(file, bot.token, platform.chatUrl, workdir);
  return withPerson({ platform, alice, bot, roomId, example });
}

/** The helpers of a chat in a room the caller made (a group, say). */
export function withPerson(chat: Pick<ExampleChat, 'platform' | 'alice' | 'bot' | 'roomId' | 'example'>): ExampleChat {
  const { platform, alice, bot, roomId, example } = chat;
  const seen = new Set<string>();
  return {
    ...chat,
    say: (text) => say(platform, alice, roomId, text),
    async botMessage(fields) {
      const matches = withFields({ senderId: bot.accountId, ...fields });
      const found = await waitForMessage(
        platform,
        alice,
        roomId,
        (m) => matches(m) && ('id' in fields || !seen.has(m.id)),
        replyWithinMs,
      ).catch((err: Error) => {
        // What the example logged tells why it did not answer.
        throw new Error(`${err.message}\nthe example's log:\n${example.log.slice(-60).join('\n')}`);
      });
      seen.add(found.id);
      return found;
    },
    async press(message, label) {
      const button = (message.inlineKeyboard ?? []).flat().find((b: { text: string }) => b.text === label);
      if (!button) throw new Error(`no button "${label}" on ${JSON.stringify(message.inlineKeyboard)}`);
      const res = await call(platform.chatUrl, 'POST', `/api/v1/rooms/${roomId}/messages/${message.id}/callback`, {
        token: alice.token,
        body: { data: button.callbackData },
      });
      expect(res.status).toBe(200);
      return waitForEvent(platform, 'bot.callback_answered', { callbackQueryId: res.body.data.callbackQueryId });
    },
    async finish(expectedErrors = []) {
      // A bot's last message is in the room before the bot has read the answer to its request: what the example
      // logs once it is being stopped (that request cut off by its own shutdown) is the stop's doing, not the platform's.
      const failures = example.errors();
      await example.stop();
      const unexpected = failures.filter((line) => !expectedErrors.some((known) => known.test(line)));
      if (unexpected.length > 0) throw new Error(`the example logged failures:\n${example.log.join('\n')}`);
    },
  };
}

/** The labels of a message's inline keyboard, row by row. */
export const labels = (message: any): string[][] =>
  (message.inlineKeyboard ?? []).map((row: Array<{ text: string }>) => row.map((b) => b.text));
