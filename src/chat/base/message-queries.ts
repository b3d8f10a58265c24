// Fragments of message statements that every reader of messages embeds: whether an account hid a message.
import { sql, type Expression } from 'kysely';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import { chatDb } from './tables.js';

/** The row saying that `account` hid the message `message`: what every "hidden for this account" test asks for. */
export const hiddenBy = (account: Expression<string> | string, message: Expression<string>) =>
  chatDb
    .selectFrom('message_hides as h')
    .select(sql.lit(1).as('one'))
    .where('h.account_id', '=', account)
    .where('h.message_id', '=', message);

/** Whether the account hid the message of row alias `alias`, as a column of a typed statement. */
export const hiddenForMe = (accountId: string | Expression<string>, alias = 'messages') =>
  sql<boolean>`exists (${hiddenBy(accountId, sql.ref(`${alias}.id`))})`.as('hidden_for_me');

export const examples: QueryExamples = {
  hiddenBy: () => hiddenBy(example.id, sql.ref('m.id')),
  hiddenForMe: () => chatDb.selectFrom('messages').select(hiddenForMe(example.id)),
};
