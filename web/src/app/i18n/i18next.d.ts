import 'i18next';
import type { TwoFactorTexts } from './two-factor';
import type zhCN from './zh-CN';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof zhCN; twoFactor: TwoFactorTexts };
  }
}
