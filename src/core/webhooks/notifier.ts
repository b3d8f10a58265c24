// The warning mail to a workspace's Owner when a webhook was paused after a delivery failed every attempt. The
// notice is a flag on the webhook, set in the transaction that paused it; one node at a time leases it, mails the
// Owner's account e-mail and the workspace's notification address when one is set (nodemailer to SMTP_URL) and clears
// it, and the sweeper retries notices whose mail did not go out.
import { createTransport, type Transporter } from 'nodemailer';
import { warningRecipients } from '../workspaces/warning-recipient.js';
import type { WebhookEngine } from './engine.js';
import { clearNotice, lastFailure, leaseNotice, pendingNotices } from './sweep-queries.js';

const leaseMs = 60_000;

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
      const notice = await leaseNotice(sql, webhookId, now, new Date(now.getTime() + leaseMs));
      if (!notice) return;
      const recipients = warningRecipients(notice.owner_email, notice.notification_email);
      if (recipients.length === 0 || !this.transport) {
        const reason = this.transport ? 'neither the workspace nor its Owner has an email address' : 'SMTP_URL is not set';
        log.warn(
          { webhookId, workspaceId: notice.workspace_id, reason },
          'webhook paused after failed deliveries; the warning was not mailed',
        );
      } else {
        const last = await lastFailure(sql, webhookId);
        await this.transport.sendMail({
          from: this.engine.settings.smtpFrom,
          // The Owner by name; the notification address is the workspace's, not a person's, so it goes without one.
          to: recipients.map((address) => (address === notice.owner_email ? { name: notice.owner_name, address } : address)),
          subject: `Webhook "${notice.name}" was paused after ${this.engine.maxAttempts} failed delivery attempts`,
          text: [
            notice.owner_email ? `Hello ${notice.owner_name},` : 'Hello,',
            '',
            `The webhook "${notice.name}" (${notice.id}) of the workspace "${notice.workspace_name}" (${notice.environment}) was paused`,
            `at ${notice.paused_at?.toISOString() ?? now.toISOString()}: a delivery to ${notice.url} failed ${this.engine.maxAttempts} consecutive attempts.`,
            last?.error ? `Last error: ${last.error}` : '',
            '',
            'New events are held while it is paused. Once the receiver answers again, resume the webhook',
            `(POST /api/v1/webhooks/${notice.id}/resume): the held deliveries are then sent.`,
          ].join('\n'),
        });
      }
      await clearNotice(sql, webhookId);
    } catch (err) {
      log.warn({ err, webhookId }, 'could not send the webhook pause notice; it will be retried');
    }
  }

  /** Notices left pending (mail failed, node died): retried once their lease has passed. */
  async retryPending(): Promise<void> {
    const now = this.engine.clock.now();
    const pending = await pendingNotices(this.engine.sql, now);
    for (const row of pending) await this.notify(row.id);
  }

  close(): void {
    this.transport?.close();
  }
}
