/** One problem in a request, e.g. { location: 'body.name', message: 'must not be longer than 200 characters' }. */
export interface ErrorDetail {
  location: string;
  message: string;
}

/**
 * An error with an HTTP status and a stable snake_case code. Services throw it; each interface's error
 * mapper turns it into that interface's envelope.
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: ErrorDetail[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}
