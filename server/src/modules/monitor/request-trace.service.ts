import type { TTracedRequest } from '@blrms/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { scopeIfSignedIn } from '../../platform/auth/scope.js';

/** A path is cut to this length: a garbage URL must not fill the trace. */
const PATH_MAX = 200;

/**
 * What a request looks like in the trace and in the metrics' `route` label: the route pattern
 * (`/api/device/device/:id`), never the values in it, nor any query string; for a request no
 * route matched (404, the console's files) the path without its query. The pattern keeps ids and
 * keys out, and the metrics' label count bounded.
 */
export function routeOf(request: FastifyRequest): string | null {
  const route = request.routeOptions.url;
  return route && route !== '/*' ? route : null;
}

export function tracedPath(request: FastifyRequest): string {
  const route = routeOf(request);
  if (route) return route;
  const path = request.url.split('?', 1)[0] ?? '';
  return path.length > PATH_MAX ? `${path.slice(0, PATH_MAX)}…` : path;
}

/**
 * The last requests this node answered, newest first: time, method, path, status, duration and
 * user. Never bodies, headers, tokens or query strings. A ring of `size` entries.
 */
export class RequestTrace {
  private readonly ring: TTracedRequest[] = [];
  private next = 0;

  constructor(
    private readonly size: number,
    private readonly clock: () => number,
  ) {}

  record(request: FastifyRequest, reply: FastifyReply): void {
    const scope = scopeIfSignedIn(request);
    const entry: TTracedRequest = {
      at: new Date(this.clock()).toISOString(),
      method: request.method,
      path: tracedPath(request),
      status: reply.statusCode,
      durationMs: Math.round(reply.elapsedTime * 10) / 10,
      user: scope ? (scope.apiKey ? `${scope.username} (API key)` : scope.username) : null,
    };
    if (this.ring.length < this.size) this.ring.push(entry);
    else this.ring[this.next] = entry;
    this.next = (this.next + 1) % this.size;
  }

  /** Newest first. */
  list(): TTracedRequest[] {
    const ordered = [...this.ring.slice(this.next), ...this.ring.slice(0, this.next)];
    return ordered.reverse();
  }
}
