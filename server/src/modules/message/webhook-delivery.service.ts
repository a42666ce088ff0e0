import { createHmac } from 'node:crypto';
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { isPrivateAddress } from './webhook-address.rules.js';

/** A failed attempt; `retry` false when trying again cannot help (a refused address). */
export class DeliveryError extends Error {
  constructor(
    message: string,
    readonly retry = true,
  ) {
    super(message);
  }
}

export const WEBHOOK_TIMEOUT_MS = 5000;
/** What is kept of a refusing receiver's answer, for the history's last error. */
const EXCERPT_BYTES = 200;

/** `sha256=<hex>`: the HMAC-SHA256, keyed with the endpoint's secret, of `<timestamp>.<body>`. */
export function signature(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

export interface WebhookPost {
  url: string;
  body: string;
  secret: string;
  event: string;
  /** Seconds since the epoch, as sent in the timestamp header. */
  timestamp: number;
  allowPrivate: boolean;
  timeoutMs?: number;
}

/**
 * Resolves like the default lookup, then refuses private addresses unless allowed: the check is
 * on the address the socket connects to, so DNS cannot swap it after a check.
 */
function guardedLookup(allowPrivate: boolean): net.LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, options, (error, address, family) => {
      if (error || allowPrivate) {
        (callback as (...args: unknown[]) => void)(error, address, family);
        return;
      }
      const list = Array.isArray(address) ? address.map((a) => a.address) : [address];
      const refused = list.find((a) => isPrivateAddress(a));
      if (refused) {
        (callback as (...args: unknown[]) => void)(
          new DeliveryError(`refused: ${hostname} resolves to a private address`, false),
        );
        return;
      }
      (callback as (...args: unknown[]) => void)(null, address, family);
    });
  };
}

/**
 * One HTTPS POST of a JSON body, signed. Redirects are not followed (a 3xx is a failure), the
 * answer is read only for a short excerpt, and the whole attempt ends after the timeout.
 */
export function postWebhook(post: WebhookPost): Promise<void> {
  const url = new URL(post.url);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!post.allowPrivate) {
    if (url.protocol !== 'https:') {
      return Promise.reject(new DeliveryError('refused: plain http is not allowed', false));
    }
    if (net.isIP(host) !== 0 && isPrivateAddress(host)) {
      return Promise.reject(new DeliveryError(`refused: ${host} is a private address`, false));
    }
  }
  const timestamp = String(post.timestamp);
  const timeoutMs = post.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<void>((resolve, reject) => {
    const request = client.request(
      url,
      {
        method: 'POST',
        lookup: guardedLookup(post.allowPrivate),
        signal: AbortSignal.timeout(timeoutMs),
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(post.body),
          'user-agent': 'BLRMS-Webhook/1',
          'x-blrms-event': post.event,
          'x-blrms-timestamp': timestamp,
          'x-blrms-signature': signature(post.secret, timestamp, post.body),
        },
      },
      (response) => {
        const status = response.statusCode ?? 0;
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          if (size < EXCERPT_BYTES) chunks.push(chunk);
          size += chunk.length;
          if (size >= EXCERPT_BYTES) response.destroy();
        });
        const settle = () => {
          if (status >= 200 && status < 300) return resolve();
          const excerpt = Buffer.concat(chunks)
            .toString('utf8')
            .slice(0, EXCERPT_BYTES)
            .replace(/\s+/g, ' ')
            .trim();
          const what =
            status >= 300 && status < 400
              ? `HTTP ${status} (redirects are not followed)`
              : `HTTP ${status}`;
          reject(new DeliveryError(excerpt ? `${what}: ${excerpt}` : what));
        };
        response.on('end', settle);
        response.on('close', settle);
        response.on('error', settle);
      },
    );
    request.on('error', (error: Error) => {
      if (error instanceof DeliveryError) return reject(error);
      const timedOut = error.name === 'AbortError' || error.name === 'TimeoutError';
      reject(new DeliveryError(timedOut ? `timeout after ${timeoutMs} ms` : error.message));
    });
    request.end(post.body);
  });
}
