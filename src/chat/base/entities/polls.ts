// The tables chat/polls owns, as the migrations create them; the schema check holds the two together.
import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { reference } from '../../../platform/db/reference.js';

export const PollEntity = defineEntity({
  name: 'Poll',
  tableName: 'polls',
  properties: {
    id: p.uuid().primary(),
    roomId: reference(p.uuid().fieldName('room_id'), 'Room', 'polls_room_id_fkey', 'cascade'),
    messageId: reference(p.uuid().fieldName('message_id'), 'Message', 'polls_message_id_fkey', 'cascade'),
    creatorId: reference(p.uuid().fieldName('creator_id'), 'Account', 'polls_creator_id_fkey'),
    question: p.text(),
    multipleChoice: p.boolean().fieldName('multiple_choice'),
    createdAt: p.datetime().fieldName('created_at'),
    closedAt: p.datetime().fieldName('closed_at').nullable(),
    closedBy: p.uuid().fieldName('closed_by').nullable(),
  },
  uniques: [{ name: 'polls_message', properties: ['messageId'] }],
});
export type Poll = InferEntity<typeof PollEntity>;

export const PollOptionEntity = defineEntity({
  name: 'PollOption',
  tableName: 'poll_options',
  properties: {
    id: p.uuid().primary(),
    pollId: reference(p.uuid().fieldName('poll_id'), 'Poll', 'poll_options_poll_id_fkey', 'cascade'),
    position: p.smallint(),
    text: p.text(),
  },
  uniques: [{ name: 'poll_options_poll_id_position_key', properties: ['pollId', 'position'] }],
});
export type PollOption = InferEntity<typeof PollOptionEntity>;

export const PollBallotEntity = defineEntity({
  name: 'PollBallot',
  tableName: 'poll_ballots',
  properties: {
    pollId: reference(p.uuid().primary().fieldName('poll_id'), 'Poll', 'poll_ballots_poll_id_fkey', 'cascade'),
    accountId: reference(p.uuid().primary().fieldName('account_id'), 'Account', 'poll_ballots_account_id_fkey'),
    optionIds: p.array().columnType('uuid[]').fieldName('option_ids'),
    votedAt: p.datetime().fieldName('voted_at'),
  },
});
export type PollBallot = InferEntity<typeof PollBallotEntity>;
