import 'i18next';
import type { FEATURE_CATALOGS, FeatureCatalog } from './feature-catalogs';
import type { TwoFactorTexts } from './two-factor';
import type zhCN from './zh-CN';

/** The Chinese texts of one feature. */
type FeatureTexts<F extends FeatureCatalog> = Awaited<
  ReturnType<(typeof FEATURE_CATALOGS)[F]['zh-CN']>
>['default'];

/** `A | B` → `A & B`: every feature's keys together. */
type AllOf<U> = (U extends unknown ? (all: U) => void : never) extends (all: infer I) => void
  ? I
  : never;

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    // A feature's texts sit in a namespace of its own but are read through the default one
    // (fallbackNS in index.ts), so its keys are typed as keys of the default namespace.
    resources: {
      translation: typeof zhCN & AllOf<FeatureTexts<FeatureCatalog>>;
      twoFactor: TwoFactorTexts;
    };
  }
}
