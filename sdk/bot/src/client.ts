// createBotClient: openapi-fetch underneath, the token in every path, one typed method per operation, and an
// async iterator over updates (long polling, confirming by offset).
import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import { BotApiError, toBotError } from './errors.js';
import { operationIds, operationRoutes, type OperationId } from './operations.js';
import type { paths } from './schema.js';
import type { BotOperations, BotResult, CallOptions, Update } from './types.js';

export interface BotClientOptions {
  /** Where the chat listener runs, e.g. http://localhost:8080 (the Bot API shares its port). */
  baseUrl: string;
  /** The bot's token, as the create or regenerate-token answer gave it. */
  token: string;
  fetch?: ClientOptions['fetch'];
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

type LooseRequest = (method: string, path: string, init: Record<string, unknown>) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

export function createBotClient(options: BotClientOptions): BotClient {
  const raw = createClient<paths>({ baseUrl: options.baseUrl, ...(options.fetch ? { fetch: options.fetch } : {}) });
  const request = raw.request as unknown as LooseRequest;

  async function call(operation: OperationId, input: unknown, callOptions?: CallOptions): Promise<BotResult<OperationId>> {
    const route = operationRoutes[operation];
    const init: Record<string, unknown> = { params: { path: { token: options.token }, ...(route.method === 'get' && input ? { query: input } : {}) } };
    if (route.method === 'post') init.body = input ?? {};
    if (callOptions?.signal) init.signal = callOptions.signal;
    const { data, error, response } = await request(route.method, route.path, init);
    const body = (data ?? error) as { ok?: boolean; result?: unknown; description?: string } | undefined;
    if (!response.ok || body?.ok !== true) return { ok: false, error: toBotError(error ?? data, response), response };
    return { ok: true, result: body.result as never, ...(body.description !== undefined ? { description: body.description } : {}), response };
  }

  const methods = Object.fromEntries(operationIds.map((id) => [id, (input?: unknown, o?: CallOptions) => call(id, input, o)])) as unknown as BotOperations;

  async function* updates(poll: PollOptions = {}): AsyncGenerator<Update, void, undefined> {
    let offset = poll.offset;
    while (!poll.signal?.aborted) {
      let answer: BotResult<'getUpdatesByPost'>;
      try {
        answer = await methods.getUpdatesByPost(
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
        throw err;
      }
      if (!answer.ok) {
        if (answer.error.errorCode === 429) {
          await sleep((answer.error.retryAfter ?? 1) * 1000, poll.signal);
          continue;
        }
        throw new BotApiError(answer.error, answer.response);
      }
      for (const update of answer.result) {
        offset = update.update_id + 1;
        yield update;
      }
    }
  }

  return Object.assign(methods, { raw, updates });
}
