import type { MessageKey } from './messages.js';

/**
 * The one error type services throw. The error handler turns it into the envelope, with the
 * message from the catalogue in the request's language.
 */
export class AppError extends Error {
  override name = 'AppError';

  constructor(
    readonly code: MessageKey,
    readonly httpStatus: number,
    readonly params: Record<string, string | number> = {},
  ) {
    super(code);
  }
}

export const unauthorized = () => new AppError('unauthorized', 401);
export const forbidden = (code: MessageKey = 'forbidden') => new AppError(code, 403);
export const notFound = (code: MessageKey = 'notFound') => new AppError(code, 404);
