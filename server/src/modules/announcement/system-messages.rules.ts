import type { Lang } from '../../platform/http/i18n.js';
import { message, type MessageKey } from '../../platform/http/messages.js';

/**
 * Messages the platform sends by itself (the bell's 系统消息). A row keeps the code and its
 * parameters; every read renders title and content in the reader's language, so one message
 * reads right in either language and never holds both.
 */
const SYSTEM_MESSAGES = {
  'device.offline': { title: 'deviceOfflineAlertTitle', content: 'deviceOfflineAlertContent' },
  'device.unstable': { title: 'deviceUnstableAlertTitle', content: 'deviceUnstableAlertContent' },
} satisfies Record<string, { title: MessageKey; content: MessageKey }>;

export type SystemMessageCode = keyof typeof SYSTEM_MESSAGES;

/**
 * Parameters as the catalogue takes them. `devices` is a list of names written as they are;
 * `more` counts the devices left out of it ("等 3 台" / "and 3 more").
 */
export type SystemMessageParams = Record<string, string | number>;

const TITLE_MAX = 100;

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
}

function isCode(code: string): code is SystemMessageCode {
  return Object.hasOwn(SYSTEM_MESSAGES, code);
}

function localized(params: SystemMessageParams, lang: Lang): SystemMessageParams {
  const more = Number(params.more ?? 0);
  if (typeof params.devices !== 'string' || more <= 0) return params;
  return {
    ...params,
    devices: `${params.devices} ${message(lang, 'deviceAlertMore', { count: more })}`,
  };
}

/** Title (plain text) and content (HTML, parameters escaped) of a system message. */
export function renderSystemMessage(
  code: SystemMessageCode,
  params: SystemMessageParams,
  lang: Lang,
): { title: string; content: string } {
  const keys = SYSTEM_MESSAGES[code];
  const values = localized(params, lang);
  return {
    title: message(lang, keys.title, values).slice(0, TITLE_MAX),
    content: `<p>${escapeHtml(message(lang, keys.content, values))}</p>`,
  };
}

/** Title and content of a message already rendered in each language (message-center templates). */
export type RenderedTexts = Record<Lang, { title: string; content: string }>;

function renderedIn(params: unknown, lang: Lang): { title: string; content: string } | null {
  const texts = (params as { texts?: Partial<RenderedTexts> } | null)?.texts;
  const text = texts?.[lang];
  return typeof text?.title === 'string' && typeof text.content === 'string' ? text : null;
}

/**
 * A stored row in the reader's language: rows with a known code are rendered, rows the message
 * center rendered in both languages show the reader's one, the others (written by people, or
 * before codes existed) are shown as stored.
 */
export function renderStored(
  row: { titile: string; msg_content: string; msg_code: string | null; msg_params: string | null },
  lang: Lang,
): { title: string; content: string } {
  if (row.msg_code) {
    try {
      const params: unknown = JSON.parse(row.msg_params ?? '{}');
      if (isCode(row.msg_code)) {
        return renderSystemMessage(row.msg_code, params as SystemMessageParams, lang);
      }
      const rendered = renderedIn(params, lang);
      if (rendered) return rendered;
    } catch {
      // Unreadable parameters: the stored text still says what happened.
    }
  }
  return { title: row.titile, content: row.msg_content };
}
