import { MESSAGE_VARIABLE, messageVariables, type TMessageChannel } from '@blrms/contracts';

export type Vars = Record<string, string | number>;

/** The texts of a template in one language. */
export interface TemplateTexts {
  subject: string;
  content: string;
}

const SUBJECT_MAX = 200;

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
}

/**
 * Replaces each `{{name}}` with its value; a name without a value stays as written, so a missing
 * variable shows in the message instead of vanishing. Plain substitution: nothing in a template
 * or a value is ever evaluated, and a value's own `{{…}}` is not expanded again.
 */
export function substitute(text: string, vars: Vars, escape: (value: string) => string): string {
  return text.replace(MESSAGE_VARIABLE, (whole, name: string) =>
    Object.hasOwn(vars, name) ? escape(String(vars[name])) : whole,
  );
}

/**
 * A template rendered for one channel. The bell shows HTML: the whole text is escaped and line
 * breaks become `<br>`, so neither the template nor a value can inject markup. Subjects are one
 * line (mail headers, titles): line breaks in values become spaces.
 */
export function render(
  channel: TMessageChannel,
  texts: TemplateTexts,
  vars: Vars,
): { title: string; content: string } {
  const oneLine = (value: string) => value.replace(/[\r\n]+/g, ' ');
  const title = substitute(texts.subject, vars, oneLine)
    .replace(/[\r\n]+/g, ' ')
    .trim();
  const plain = substitute(texts.content, vars, (value) => value);
  const content =
    channel === 'system' ? `<p>${escapeHtml(plain).replace(/\r?\n/g, '<br>')}</p>` : plain;
  return { title: title.slice(0, SUBJECT_MAX), content };
}

/** Variables the texts name that `declared` does not: a template may only use declared ones. */
export function undeclaredVariables(texts: string[], declared: Vars): string[] {
  const names = new Set(texts.flatMap(messageVariables));
  return [...names].filter((name) => !Object.hasOwn(declared, name));
}
