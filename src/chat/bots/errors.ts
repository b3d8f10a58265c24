// Refusals of the bot administration operations, in the chat envelope (docs/errors.md, "Bots").
import { chatErrors } from '../base/errors.js';

export const botErrors = {
  /** No live bot with this id that the caller manages: other tenants learn nothing about it. */
  notFound: () => chatErrors.notFound('Bot', 'bot_not_found'),
  usernameTaken: (username: string) => chatErrors.conflict('username_taken', `Another bot is called @${username}.`),
  notInRoom: () => chatErrors.conflict('bot_not_in_room', 'The bot is not a member of this room; add its account first.'),
  unavailable: () => chatErrors.conflict('bot_unavailable', 'The bot that sent this message was deleted or left the room.'),
  noSuchButton: () => chatErrors.invalid('body.data', 'names no button of this message'),
};
