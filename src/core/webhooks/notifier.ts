// The warning mail to a workspace's Owner when a webhook was paused after a delivery failed every attempt. The
// notice is a flag on the webhook, set in the transaction that paused it; one node at a time leases it, mails the
// workspace's notification address or else the Owner's account e-mail (nodemailer to SMTP_URL) and clears it, and
// the sweeper retries notices whose mail did not go out.
import { createTransport, type Transporter } from 'nodemailer';
import { warningRecipientSql } from '../workspaces/warning-recipient.js';
import type { WebhookEngine } from './engine.js';

const leaseMs = 60_000;

interface NoticeRow {
  id: string;
  name: string;
  url: string;
  workspace_id: string;
  environment: string;
  consecutive_failures: number;
  paused_at: Date | null;
  workspace_name: string;
  recipient: string | null;
  notification_email: string | null;
  owner_name: string;
}

export class PauseNotifier {
  private readonly transport: Transporter | null;

  constructor(private readonly engine: WebhookEngine) {
    this.transport = engine.settings.smtpUrl ? createTransport(engine.settings.smtpUrl) : null;
  }

  /** Mails the notice of one webhook if it is still pending and not leased by another node; never throws. */
  async notify(webhookId: string): Promise<void> {
    const { sql, clock, log } = this.engine;
    try {
      const now = clock.now();
      const { rows } = await sql.query<NoticeRow>(
        `with leased as (
           update webhooks set notice_lease_until = $3
            where id = $1 and notice_pending and (notice_lease_until is null or notice_lease_until < $2)
        returning id, name, url, workspace_id, environment, consecutive_failures, paused_at)
         select l.*, ws.name as workspace_name, ${warningRecipientSql} as recipient, ws.notification_email, a.display_name as owner_name
           from leased l join workspaces ws on ws.id = l.workspace_id join accounts a on a.id = ws.owner_id`,
        [webhookId, now, new Date(now.getTime() + leaseMs)],
      );
      const notice = rows[0];
      if (!notice) return;
      if (!notice.recipient || !this.transport) {
        const reason = this.transport ? 'neither the workspace nor its Owner has an email address' : 'SMTP_URL is not set';
        log.warn(
          { webhookId, workspaceId: notice.workspace_id, reason },
          'webhook paused after failed deliveries; the warning was not mailed',
        );
      } else {
        const last = await sql.query<{ error: string | null }>(
          "select error from webhook_deliveries where webhook_id = $1 and status = 'failed' order by id desc limit 1",
          [webhookId],
        );
        await this.transport.sendMail({
          from: this.engine.settings.smtpFrom,
          // The notification address is the workspace's, not a person's: it is addressed without the Owner's name.
          to: notice.notification_email ? notice.recipient : { name: notice.owner_name, address: notice.recipient },
          subject: `Webhook "${notice.name}" was paused after ${this.engine.maxAttempts} failed delivery attempts`,
          text: [
            notice.notification_email ? 'Hello,' : `Hello ${notice.owner_name},`,
            '',
            `The webhook "${notice.name}" (${notice.id}) of the workspace "${notice.workspace_name}" (${notice.environment}) was paused`,
            `at ${notice.paused_at?.toISOString() ?? now.toISOString()}: a delivery to ${notice.url} failed ${this.engine.maxAttempts} consecutive attempts.`,
            last.rows[0]?.error ? `Last error: ${last.rows[0].error}` : '',
            '',
            'New events are held while it is paused. Once the receiver answers again, resume the webhook',
            `(POST /api/v1/webhooks/${notice.id}/resume): the held deliveries are then sent.`,
          ].join('\n'),
        });
      }
      await sql.query('update webhooks set notice_pending = false, notice_lease_until = null where id = $1', [webhookId]);
    } catch (err) {
      log.warn({ err, webhookId }, 'could not send the webhook pause notice; it will be retried');
    }
  }

  /** Notices left pending (mail failed, node died): retried once their lease has passed. */
  async retryPending(): Promise<void> {
    const { rows } = await this.engine.sql.query<{ id: string }>(
      'select id from webhooks where notice_pending and (notice_lease_until is null or notice_lease_until < $1) limit 100',
      [this.engine.clock.now()],
    );
    for (const row of rows) await this.notify(row.id);
  }

  close(): void {
    this.transport?.close();
  }
}
