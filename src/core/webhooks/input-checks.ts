// Checks of what a caller sends to create or change a webhook: a bad field is the calling API's invalid error.
import type { AppError } from '../../platform/http/app-error.js';
import type { WebhookEngine } from './engine.js';
import { isWebhookEvent } from './events.js';
import { headersProblem } from './headers.js';
import { parseWebhookUrl, resolveTarget, TargetRefused } from './targets.js';

/** The errors of the calling API, in its envelope. */
export interface WebhookErrorFactory {
  invalid(field: string, message: string): AppError;
  webhookNotFound(): AppError;
  deliveryNotFound(): AppError;
  /** 409: the webhook is Disabled. */
  disabled(): AppError;
  /** 409: the delivery is pending, sending or held. */
  inProgress(): AppError;
  /** 409: the workspace environment has as many webhooks as allowed. */
  limitReached(limit: number): AppError;
}

export interface WebhookInput {
  name?: string;
  url?: string;
  events?: string[];
  secret?: string;
  description?: string | null;
  headers?: Record<string, string>;
}

export class WebhookInputChecks {
  constructor(
    private readonly engine: WebhookEngine,
    private readonly errors: WebhookErrorFactory,
  ) {}

  checkUrl(raw: string, field: string): URL {
    const url = parseWebhookUrl(raw);
    if (typeof url === 'string') throw this.errors.invalid(field, url);
    return url;
  }

  /**
   * Refuses a loopback or private target now; a name that does not resolve yet (or not within the receiver time-out)
   * is left to the ping to judge.
   */
  async checkTarget(url: URL, field: string): Promise<void> {
    try {
      await resolveTarget(url, this.engine.settings.allowPrivateTargets, this.engine.settings.timeoutMs);
    } catch (err) {
      if (err instanceof TargetRefused) throw this.errors.invalid(field, err.message);
    }
  }

  checkEvents(events: string[], field: string): string[] {
    const unknown = events.find((e) => !isWebhookEvent(e));
    if (unknown !== undefined)
      throw this.errors.invalid(field, `contains ${JSON.stringify(unknown.slice(0, 64))}, which is not an event of the catalogue`);
    const unique = [...new Set(events)];
    if (unique.length === 0) throw this.errors.invalid(field, 'must name at least one event');
    return unique;
  }

  checkHeaders(headers: Record<string, string>, field: string): Record<string, string> {
    const problem = headersProblem(headers);
    if (problem) throw this.errors.invalid(field, problem);
    return headers;
  }

  checkName(name: string, field: string): string {
    const trimmed = name.trim();
    if (trimmed.length < 1 || trimmed.length > 100) throw this.errors.invalid(field, 'must be 1 to 100 characters, not all blank');
    return trimmed;
  }

  checkDescription(description: string | null, field: string): string | null {
    if (description !== null && description.length > 500) throw this.errors.invalid(field, 'must be at most 500 characters');
    return description;
  }

  checkSecret(secret: string, field: string): string {
    if (!/^[!-~]{16,256}$/.test(secret)) throw this.errors.invalid(field, 'must be 16 to 256 printable ASCII characters without spaces');
    return secret;
  }
}
