// The statements of a bot's polls: what Telegram adds to the chat's poll (bot_polls), and the poll a stopPoll names.
import { sql } from 'kysely';
import type { SqlClient } from '../../../platform/db/sql.js';
import { affected, firstRow, type Runner } from '../../../platform/db/typed.js';
import { example, type QueryExamples } from '../../../platform/db/query-examples.js';
import { chatDb } from '../../base/tables.js';

export interface BotPollFacts {
  pollId: string;
  botId: string;
  isAnonymous: boolean;
  quiz: boolean;
  /** A quiz's correct options; null for a regular poll. */
  correctOptionIds: number[] | null;
  explanation: string | null;
  /** JSON, or null for none. */
  explanationEntities: string | null;
}

export async function insertBotPoll(client: SqlClient, poll: BotPollFacts): Promise<void> {
  await affected(
    client,
    chatDb.insertInto('bot_polls').values({
      poll_id: poll.pollId,
      bot_id: poll.botId,
      is_anonymous: poll.isAnonymous,
      quiz: poll.quiz,
      correct_option_ids: poll.correctOptionIds === null ? null : sql<string[]>`${poll.correctOptionIds}::smallint[]`,
      explanation: poll.explanation,
      explanation_entities: poll.explanationEntities,
    }),
  );
}

/** The poll of the message of this sequence number, unless the message is recalled. */
export async function pollOfMessage(db: Runner, roomId: string, seq: number) {
  return firstRow(
    db,
    chatDb
      .selectFrom('messages as m')
      .innerJoin('polls as p', 'p.message_id', 'm.id')
      .select(['p.id', 'p.creator_id', 'p.closed_at'])
      .where('m.room_id', '=', roomId)
      .where('m.seq', '=', seq)
      .where('m.recalled_at', 'is', null),
  );
}

export const examples: QueryExamples = {
  insertBotPoll: (db) =>
    insertBotPoll(db, {
      pollId: example.id,
      botId: example.otherId,
      isAnonymous: true,
      quiz: true,
      correctOptionIds: [1],
      explanation: example.text,
      explanationEntities: '[]',
    }),
  pollOfMessage: (db) => pollOfMessage(db, example.id, 7),
};
