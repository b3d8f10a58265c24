// createBotClient: the core's openapi-fetch client underneath, the token in every path, one typed method per
// operation resolving to the answer's result (or throwing BotApiError), and an async iterator over updates (long
// polling, confirming by offset).
import { send, underlying, type CommonClientOptions, type LooseInput } from '@chat-platform/sdk-core';
import type { Client } from 'openapi-fetch';
import { BotApiError, toBotApiError } from './errors.js';
import { operationIds, operationRoutes, type OperationId } from './operations.js';
import type { paths } from './schema.js';
import type { BotOperations, CallOptions, Update } from './types.js';

export interface BotClientOptions extends CommonClientOptions {
  /** Where the chat listener runs, e.g. http://localhost:8080 (the Bot API shares its port). */
  baseUrl: string;
  /** The bot's token, as the create or regenerate-token answer gave it. */
  token: string;
}

export interface PollOptions {
  /** Seconds each getUpdates may wait (default 30; the server caps it). */
  timeout?: number;
  limit?: number;
  /** The first update_id to ask for; later requests confirm what was yielded. */
  offset?: number;
  allowedUpdates?: Array<'message' | 'callback_query'>;
  /** Ends the iteration (the pending request is aborted). */
  signal?: AbortSignal;
}

export interface BotClientExtras {
  readonly raw: Client<paths>;
  /**
   * Yields updates as they arrive, confirming each batch with the next request's offset (so an update is confirmed
   * only once the loop asked for more after it). 429 waits retry_after; any other error throws BotApiError.
   */
  updates(options?: PollOptions): AsyncGenerator<Update, void, undefined>;
}

export type BotClient = BotOperations & BotClientExtras;

const pause = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

export function createBotClient(options: BotClientOptions): BotClient {
  if (typeof options.token !== 'string' || options.token === '') throw new TypeError('createBotClient needs the bot token');
  // The token travels in the path, so there is no authentication middleware.
  const { raw, request, policy } = underlying<paths>(options, undefined);

  async function call(operation: OperationId, input: unknown, callOptions: CallOptions = {}): Promise<unknown> {
    const route = operationRoutes[operation];
    const loose: LooseInput = { path: { token: options.token } };
    if (route.method === 'get' && input) loose.query = input as Record<string, unknown>;
    if (route.method === 'post') loose.body = input ?? {};
    // GETs are repeated after a 5xx too; the POST methods (sendMessage, ...) only after a 429.
    const { data, response } = await send(request, policy, toBotApiError, route, loose, {
      signal: callOptions.signal,
      maxRetries: callOptions.maxRetries,
    });
    const body = data as { ok?: boolean; result?: unknown } | undefined;
    if (body?.ok !== true) throw toBotApiError(data, response);
    return body.result;
  }

  const methods = Object.fromEntries(
    operationIds.map((id) => [id, (input?: unknown, o?: CallOptions) => call(id, input, o)]),
  ) as unknown as BotOperations;

  async function* updates(poll: PollOptions = {}): AsyncGenerator<Update, void, undefined> {
    let offset = poll.offset;
    while (!poll.signal?.aborted) {
      let batch: Update[];
      try {
        batch = await methods.getUpdatesByPost(
          {
            timeout: poll.timeout ?? 30,
            ...(poll.limit !== undefined ? { limit: poll.limit } : {}),
            ...(offset !== undefined ? { offset } : {}),
            ...(poll.allowedUpdates ? { allowed_updates: poll.allowedUpdates } : {}),
          },
          poll.signal ? { signal: poll.signal } : {},
        );
      } catch (err) {
        if (poll.signal?.aborted) return;
        // A poll loop outlasts any retry budget: keep waiting out 429s for as long as the loop runs.
        if (err instanceof BotApiError && err.status === 429) {
          await pause((err.retryAfter ?? 1) * 1000, poll.signal);
          continue;
        }
        throw err;
      }
      for (const update of batch) {
        offset = update.update_id + 1;
        yield update;
      }
    }
  }

  return Object.assign(methods, { raw, updates });
}
