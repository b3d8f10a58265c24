// The Bot API's envelope: {ok: false, error_code, description, parameters?}, with error_code equal to the HTTP
// status and Telegram's descriptions ("Unauthorized", "Not Found", "Bad Request: chat not found"), so that
// libraries written for Telegram read our errors as theirs. Framework errors (validation, malformed JSON, unknown
// routes) arrive as plain AppErrors and are described the same way.
import { AppError } from '../../../platform/http/app-error.js';
import type { ErrorRendering } from '../../../platform/http/server.js';

export class BotApiError extends AppError {
  constructor(
    status: number,
    description: string,
    readonly retryAfter?: number,
  ) {
    super(
      status,
      `bot_api_${status}`,
      description,
      undefined,
      retryAfter !== undefined ? { 'retry-after': String(retryAfter) } : undefined,
    );
    this.name = 'BotApiError';
  }
}

export const botApiErrors = {
  unauthorized: () => new BotApiError(401, 'Unauthorized'),
  badRequest: (what: string) => new BotApiError(400, `Bad Request: ${what}`),
  chatNotFound: () => new BotApiError(400, 'Bad Request: chat not found'),
  conflict: (what: string) => new BotApiError(409, `Conflict: ${what}`),
  tooManyRequests: (retryAfter: number) => new BotApiError(429, `Too Many Requests: retry after ${retryAfter}`, retryAfter),
};

const statusText: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Request Entity Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
};

/** Telegram's description: the status text, then what went wrong where that helps (bad input). */
export function describe(error: AppError): string {
  if (error instanceof BotApiError) return error.message;
  const text = statusText[error.status] ?? (error.status >= 500 ? 'Internal Server Error' : 'Bad Request');
  // reply-markup-check.ts reads reply_markup before validation; what the schema still refuses there is named as a whole.
  if (error.details?.some((d) => d.location.startsWith('body.reply_markup')))
    return `${text}: can't parse reply keyboard markup JSON object`;
  if (error.details && error.details.length > 0) return `${text}: ${error.details.map((d) => `${d.location} ${d.message}`).join('; ')}`;
  if (error.status === 400 || error.status === 415) return `${text}: ${error.message}`;
  return text;
}

export function renderBotError(error: AppError): ErrorRendering {
  const retryAfter = error instanceof BotApiError ? error.retryAfter : undefined;
  return {
    body: {
      ok: false,
      error_code: error.status,
      description: describe(error),
      ...(retryAfter !== undefined ? { parameters: { retry_after: retryAfter } } : {}),
    },
  };
}
