import i18n, { type BackendModule, type ResourceKey } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { applyLanguage, isLanguage, storedLanguage, type Language } from '../../shared/language';

/**
 * Each language's catalog is a chunk of its own, loaded before the first render and on a switch:
 * a visitor downloads only the language they read (the login route has a size budget, and the two
 * catalogs together were a tenth of it). Every key exists in both (i18n.test.ts), so there is no
 * fallback language to download as well.
 */
const CATALOGS: Record<Language, () => Promise<{ default: ResourceKey }>> = {
  'zh-CN': () => import('./zh-CN'),
  'en-US': () => import('./en-US'),
};

const catalogs: BackendModule = {
  type: 'backend',
  init() {},
  read(language, namespace, done) {
    // Other namespaces (two-factor texts) are added by the screens that use them.
    if (namespace !== 'translation' || !isLanguage(language)) {
      done(null, {});
      return;
    }
    CATALOGS[language]().then(
      (catalog) => done(null, catalog.default),
      (error: unknown) => done(error instanceof Error ? error : new Error(String(error)), null),
    );
  },
};

/** Loads the stored language's catalog and sets up i18next; the console renders after it. */
export async function initI18n(): Promise<void> {
  const language = storedLanguage();
  applyLanguage(language);
  await i18n
    .use(catalogs)
    .use(initReactI18next)
    .init({
      lng: language,
      fallbackLng: false,
      load: 'currentOnly',
      ns: ['translation'],
      interpolation: { escapeValue: false },
    });
}
