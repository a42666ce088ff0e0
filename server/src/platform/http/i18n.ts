import type { FastifyRequest } from 'fastify';

export type Lang = 'zh-CN' | 'en-US';

/** The console sends zh-CN or en-US; anything that prefers English gets English, else Chinese. */
export function languageOf(request: Pick<FastifyRequest, 'headers'>): Lang {
  const header = request.headers['accept-language'];
  if (typeof header !== 'string' || header === '') return 'zh-CN';
  const ranked = header
    .split(',')
    .map((part) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { tag: tag.toLowerCase(), q: q ? Number(q.slice(2)) || 0 : 1 };
    })
    .filter((l) => l.tag.startsWith('en') || l.tag.startsWith('zh'))
    .sort((a, b) => b.q - a.q);
  return ranked[0]?.tag.startsWith('en') ? 'en-US' : 'zh-CN';
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The language of messages and titles for this request. */
    lang: Lang;
  }
}
