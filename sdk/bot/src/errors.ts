// Error answers as typed values, and the exception thrown where a value cannot be returned (the update iterator).
import type { BotError } from './types.js';

/** The code given to answers that are not the Bot API envelope (a proxy's 502 page). */
export const UNEXPECTED_RESPONSE = 0;

export class BotApiError extends Error {
  override readonly name = 'BotApiError';
  constructor(
    readonly error: BotError,
    readonly response: Response,
  ) {
    super(`${error.errorCode} ${error.description}`);
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function toBotError(body: unknown, response: Response): BotError {
  if (isRecord(body) && body.ok === false && typeof body.error_code === 'number' && typeof body.description === 'string') {
    const error: BotError = { errorCode: body.error_code, description: body.description };
    if (isRecord(body.parameters) && typeof body.parameters.retry_after === 'number') error.retryAfter = body.parameters.retry_after;
    return error;
  }
  const text = typeof body === 'string' ? body : body === undefined ? '' : JSON.stringify(body);
  return { errorCode: response.status || UNEXPECTED_RESPONSE, description: `HTTP ${response.status}${text ? `: ${text.slice(0, 500)}` : ''}` };
}
