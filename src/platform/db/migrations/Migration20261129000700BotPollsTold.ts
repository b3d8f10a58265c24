import { Migration } from '@mikro-orm/migrations';

/**
 * The poll state last sent to the bot in a poll update. Updates read the poll when their events are drained, so two
 * votes drained after both were cast would report the same state twice; Telegram sends a poll update only when the
 * state changed, and bots act on counts they see (a poll stopped at the third voter would be stopped twice).
 */
export class Migration20261129000700BotPollsTold extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table bot_polls add column told_poll jsonb;');
  }

  override async down(): Promise<void> {
    this.addSql('alter table bot_polls drop column told_poll;');
  }
}
