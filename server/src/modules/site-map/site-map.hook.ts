import type { FastifyInstance } from 'fastify';
import type { SiteMapService } from './site-map.service.js';

/**
 * The console's pages (HTML) may load map tiles from the configured tile server: its origin joins
 * the img-src of their content security policy. Only documents are touched, since images follow
 * the policy of the page that shows them.
 */
export function registerTileSourceHook(app: FastifyInstance, sites: SiteMapService): void {
  app.addHook('onSend', async (_request, reply, payload) => {
    const type = reply.getHeader('content-type');
    if (typeof type !== 'string' || !type.startsWith('text/html')) return payload;
    const policy = reply.getHeader('content-security-policy');
    if (typeof policy !== 'string') return payload;
    const next = await sites.contentSecurityPolicy(policy);
    if (next !== policy) reply.header('content-security-policy', next);
    return payload;
  });
}
