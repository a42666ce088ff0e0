import { ZCacheBuster, ZErrorEnvelope, envelope } from '@blrms/contracts';
import type { z } from 'zod';
import type { FieldProblem } from './field-problems.js';

export interface Envelope<T> {
  success: boolean;
  message: string;
  code: number;
  result: T;
  timestamp: number;
  errors?: FieldProblem[];
}

export function ok<T>(result: T, message = ''): Envelope<T> {
  return { success: true, message, code: 200, result, timestamp: Date.now() };
}

export function failure(
  httpStatus: number,
  message: string,
  errors: FieldProblem[] = [],
): Envelope<null> {
  const body: Envelope<null> = {
    success: false,
    message,
    code: httpStatus,
    result: null,
    timestamp: Date.now(),
  };
  if (errors.length > 0) body.errors = errors;
  return body;
}

/** Response schemas of a route: the success envelope around `result`, the error envelope otherwise. */
export function responses<T extends z.ZodType>(result: T) {
  return { 200: envelope(result), '4xx': ZErrorEnvelope, '5xx': ZErrorEnvelope };
}

/** Query of a GET without parameters: the cache buster only, anything else is refused. */
export const ZNoQuery = ZCacheBuster.strict();
