// Which bots of a room receive a message (docs/bots.md, "Which messages a bot receives"). In a private room with
// the bot, and in a room where its read-all switch is on: every message. Otherwise only a message that starts
// with a command not addressed to another bot (/start, /help@thisbot), that mentions it (@thisbot), or that
// replies in a thread whose root the bot sent. Bots never receive messages of bots (their own included), so two
// bots cannot feed each other.
import { leadingCommand, mentionedUsernames } from '../entities.js';

export interface Candidate {
  botAccountId: string;
  username: string;
  readAll: boolean;
}

export interface IncomingMessage {
  roomType: string;
  senderType: string;
  text: string | null;
  /** The sender of the thread root, for a thread reply. */
  rootSenderId: string | null;
}

export function receives(bot: Candidate, message: IncomingMessage): boolean {
  if (message.senderType === 'BOT' || message.text === null) return false;
  if (message.roomType === 'PRIVATE' || bot.readAll) return true;
  const username = bot.username.toLowerCase();
  const command = leadingCommand(message.text);
  if (command && (command.to === null || command.to === username)) return true;
  if (mentionedUsernames(message.text).has(username)) return true;
  return message.rootSenderId === bot.botAccountId;
}
