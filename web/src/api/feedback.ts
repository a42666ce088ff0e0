import type { App } from 'antd';

/**
 * The antd feedback APIs bound to the app's ConfigProvider (theme, locale). The root component
 * registers them from `App.useApp()` so that the HTTP client, which lives outside React, shows
 * notices that look like the rest of the console.
 */
export type Feedback = ReturnType<typeof App.useApp>;

let current: Feedback | null = null;

export function registerFeedback(feedback: Feedback): void {
  current = feedback;
}

export function feedback(): Feedback {
  if (!current) throw new Error('feedback used before the app mounted');
  return current;
}
