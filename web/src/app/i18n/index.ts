import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { applyLanguage, storedLanguage } from '../../shared/language';
import enUS from './en-US';
import zhCN from './zh-CN';

export const resources = {
  'zh-CN': { translation: zhCN },
  'en-US': { translation: enUS },
} as const;

const language = storedLanguage();

void i18n.use(initReactI18next).init({
  resources,
  lng: language,
  fallbackLng: 'zh-CN',
  // Resources are bundled, so init completes synchronously and the first render is translated.
  initAsync: false,
  interpolation: { escapeValue: false },
});

applyLanguage(language);
