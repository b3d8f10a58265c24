import { Migration } from '@mikro-orm/migrations';

/**
 * What Telegram's sendPoll says about a poll beyond the chat's own poll: whether votes are reported to the bot
 * (is_anonymous), whether it is a quiz and its correct options. And, for polls that are not anonymous, each voter's
 * options as last reported to the bot in a poll_answer update: a vote is reported when the ballot differs from it.
 */
export class Migration20261129000100BotPolls extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table bot_polls (
        poll_id uuid primary key references polls (id) on delete cascade,
        bot_id uuid not null references bots (id),
        is_anonymous boolean not null,
        quiz boolean not null,
        correct_option_ids smallint[],
        explanation text
      );
      create index bot_polls_bot_id on bot_polls (bot_id);
      create table bot_poll_answers (
        poll_id uuid not null references bot_polls (poll_id) on delete cascade,
        account_id uuid not null references accounts (id),
        option_ids smallint[] not null,
        primary key (poll_id, account_id)
      );
    `);
  }

  override async down(): Promise<void> {
    this.addSql('drop table bot_poll_answers; drop table bot_polls;');
  }
}
