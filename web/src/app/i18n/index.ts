import i18n, { type BackendModule, type ResourceKey } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { applyLanguage, isLanguage, storedLanguage, type Language } from '../../shared/language';
import { FEATURE_CATALOGS, isFeatureCatalog, type FeatureCatalog } from './feature-catalogs';

/**
 * Each language's catalog is a chunk of its own, loaded before the first render and on a switch:
 * a visitor downloads only the language they read (the login route has a size budget, and the two
 * catalogs together were a tenth of it). Every key exists in both (i18n.test.ts), so there is no
 * fallback language to download as well. This catalog holds the texts of the shell, the login
 * route and shared/; each feature's own texts come with its pages (feature-catalogs.ts).
 */
const CATALOGS: Record<Language, () => Promise<{ default: ResourceKey }>> = {
  'zh-CN': () => import('./zh-CN'),
  'en-US': () => import('./en-US'),
};

/** A namespace's chunk in a language: the shell's catalog or a feature's. */
function catalogLoader(language: Language, namespace: string) {
  if (namespace === 'translation') return CATALOGS[language];
  if (isFeatureCatalog(namespace)) return FEATURE_CATALOGS[namespace][language];
  return undefined;
}

const catalogs: BackendModule = {
  type: 'backend',
  callbackApi: true,
  init() {},
  read(language, namespace, done) {
    // Other namespaces (two-factor texts) are added by the screens that use them.
    const load = isLanguage(language) ? catalogLoader(language, namespace) : undefined;
    if (!load) {
      done(null, {});
      return;
    }
    load().then(
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
      // Features' keys keep their names in the default namespace (`t('device.sn')`): a key the
      // shell's catalog lacks is looked up in the features' namespaces, loaded or not yet.
      fallbackNS: Object.keys(FEATURE_CATALOGS),
      interpolation: { escapeValue: false },
    });
}

/**
 * Loads features' texts in the current language; from then on i18next loads them in every language
 * switched to, before the switch applies.
 */
function loadFeatureMessages(features: readonly FeatureCatalog[]): Promise<void> {
  return new Promise((resolve, reject) => {
    void i18n.loadNamespaces([...features], (errors: unknown) => {
      if (!errors) resolve();
      else reject(new Error(`texts of ${features.join(', ')} failed to load`, { cause: errors }));
    });
  });
}

/**
 * A lazy chunk (a page) that resolves once the texts of the features it shows are loaded as well,
 * so that it renders in the reader's language at once.
 */
export function withTexts<Chunk>(
  features: readonly FeatureCatalog[],
  chunk: Promise<Chunk>,
): Promise<Chunk> {
  return Promise.all([chunk, loadFeatureMessages(features)]).then(([module]) => module);
}
