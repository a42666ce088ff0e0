import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isDatabaseUnavailable } from '../db/unavailable.js';
import { AppError } from './app-error.js';
import { failure } from './envelope.js';
import { parseFieldProblems, readableProblems, type FieldProblem } from './field-problems.js';
import { languageOf, type Lang } from './i18n.js';
import { message, type MessageKey } from './messages.js';
import { validationProblems } from './validation-message.js';

const STATUS_MESSAGES: Record<number, MessageKey> = {
  401: 'unauthorized',
  403: 'forbidden',
  404: 'notFound',
  409: 'conflict',
  413: 'payloadTooLarge',
  415: 'unsupportedMediaType',
  429: 'tooManyRequests',
};

function send(reply: FastifyReply, status: number, text: string, errors: FieldProblem[] = []) {
  return reply
    .code(status)
    .type('application/json; charset=utf-8')
    .send(failure(status, text, errors));
}

/** A 4xx about fields: the fields for a form, the message for a person (labels, not keys). */
function sendProblems(reply: FastifyReply, status: number, problems: FieldProblem[], lang: Lang) {
  return send(reply, status, readableProblems(problems, lang), problems);
}

export function handleError(error: unknown, request: FastifyRequest, reply: FastifyReply) {
  const lang = languageOf(request);
  if (error instanceof AppError) {
    const text = message(lang, error.code, error.params);
    const problems = error.httpStatus < 500 ? parseFieldProblems(text) : [];
    if (problems.length > 0) return sendProblems(reply, error.httpStatus, problems, lang);
    return send(reply, error.httpStatus, text);
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const problems = validationProblems(error.validation, error.validationContext, lang);
    return sendProblems(reply, 400, problems, lang);
  }
  const status = (error as FastifyError).statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    // Fastify's own 4xx (bad JSON, wrong content type, body too large) are safe to report by kind.
    return send(reply, status, message(lang, STATUS_MESSAGES[status] ?? 'badRequest'));
  }
  if (isDatabaseUnavailable(error)) {
    // An outage, not a bug: the client may retry. The log thins these out (OutageLog).
    request.log.error({ err: error }, 'request failed: database unavailable');
    return send(reply, 503, message(lang, 'databaseUnavailable'));
  }
  // The details stay in the log: a 5xx response never carries internals.
  request.log.error({ err: error }, 'request failed');
  return send(reply, 500, message(lang, 'internalError'));
}

export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler(handleError);
}
