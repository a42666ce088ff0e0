import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import type { IncomingMessage } from 'node:http';

/** A Host header that can only name a host and port; anything else gets no websocket source. */
const HOST = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

/**
 * The websocket of this origin. CSP level 3 lets `'self'` cover ws(s) of the same host, but older
 * browsers do not, so the host the browser asked for is named too.
 */
function websocketSources(req: IncomingMessage): string {
  const host = req.headers.host ?? '';
  return HOST.test(host) ? `ws://${host} wss://${host}` : '';
}

/**
 * Browser security headers on every response, console and API alike (one registration, so no
 * route can miss them). The session token lives in localStorage and announcements render rich
 * HTML, so scripts come from this origin only: no inline scripts, no eval. Styles allow
 * `'unsafe-inline'` because antd's CSS-in-JS injects <style> elements at run time and the rich
 * text editor writes style attributes; a nonce would need every style element to carry it, which
 * antd only does through a provider for its own tags, and a style cannot run script. Images may be
 * data: and blob: URLs (avatars, uploads, charts saved as images). SSO sign-in navigates the whole
 * page away, which `form-action` does not govern. HSTS is sent only when configured: on plain
 * HTTP it is ignored at best and locks users out of a later HTTP fallback at worst.
 */
export async function registerSecurityHeaders(
  app: FastifyInstance,
  hstsMaxAge: number,
): Promise<void> {
  await app.register(fastifyHelmet, {
    global: true,
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", (req) => websocketSources(req)],
        workerSrc: ["'self'", 'blob:'],
        frameAncestors: ["'none'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
      },
    },
    frameguard: { action: 'deny' },
    noSniff: true,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    strictTransportSecurity:
      hstsMaxAge > 0 ? { maxAge: hstsMaxAge, includeSubDomains: true } : false,
  });
}
