import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Config } from '../../config.js';
import { readScope } from '../auth/scope.js';
import { OutageLog } from '../db/unavailable.js';
import { registerErrorHandling } from './error-handler.js';
import { languageOf } from './i18n.js';
import { registerSecurityHeaders } from './security-headers.js';

/** Credentials never reach the log, whatever the level. */
const REDACT = [
  'req.headers.authorization',
  'req.headers["x-access-token"]',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  'password',
  'oldpassword',
  'confirmpassword',
  '*.password',
  '*.oldpassword',
  '*.confirmpassword',
];

/**
 * The Fastify instance every module registers on: logging, zod validation, the request's language
 * and scope, error envelopes and security headers.
 */
export async function createHttpServer(
  config: Config,
  logger: FastifyServerOptions['logger'] | undefined,
): Promise<{ app: FastifyInstance; outage: OutageLog }> {
  const outage = new OutageLog();
  const logging = logger ?? {
    level: config.logLevel,
    redact: { paths: REDACT, censor: '[redacted]' },
  };
  const app = Fastify({
    // During a database outage every request and background task fails the same way: one line per
    // cause and interval says so, instead of a stack per failure.
    logger:
      typeof logging === 'object'
        ? { ...logging, hooks: { ...logging.hooks, logMethod: outage.hook() } }
        : logging,
    // Client IPs (login lockout, rate limits, logs) come from the socket, or from X-Forwarded-For
    // only when the socket is a configured proxy: trusting the header from anyone would let a
    // client choose its address, escape its own lockout and lock someone else's out.
    trustProxy: config.trustedProxies.length > 0 ? config.trustedProxies : false,
    bodyLimit: 1024 * 1024,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorateRequest('lang', {
    getter() {
      return languageOf(this);
    },
  });
  app.decorateRequest('scope', {
    getter() {
      return readScope(this);
    },
  });
  registerErrorHandling(app);
  // First of all hooks: a request refused early (401, 429) still gets the headers.
  await registerSecurityHeaders(app, config.hstsMaxAge);
  return { app, outage };
}
