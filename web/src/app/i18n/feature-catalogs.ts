import type { ResourceKey } from 'i18next';
import type { Language } from '../../shared/language';

type CatalogLoaders = Record<Language, () => Promise<{ default: ResourceKey }>>;

/**
 * Each feature's own texts (features/<feature>/messages/), one chunk per language, kept in an
 * i18next namespace named after the feature. The pages that show a feature's components load its
 * namespace with their chunk (component-registry.ts, AppRoutes.tsx), so the login route carries
 * only the shell's catalog; a language switch loads the namespaces loaded so far in the new
 * language before it applies. Texts used by two features or by shared/ stay in the shell's catalog.
 */
export const FEATURE_CATALOGS = {
  'account-depart': {
    'zh-CN': () => import('../../features/account-depart/messages/zh-CN'),
    'en-US': () => import('../../features/account-depart/messages/en-US'),
  },
  'account-permission': {
    'zh-CN': () => import('../../features/account-permission/messages/zh-CN'),
    'en-US': () => import('../../features/account-permission/messages/en-US'),
  },
  'account-position': {
    'zh-CN': () => import('../../features/account-position/messages/zh-CN'),
    'en-US': () => import('../../features/account-position/messages/en-US'),
  },
  'account-role': {
    'zh-CN': () => import('../../features/account-role/messages/zh-CN'),
    'en-US': () => import('../../features/account-role/messages/en-US'),
  },
  'account-user': {
    'zh-CN': () => import('../../features/account-user/messages/zh-CN'),
    'en-US': () => import('../../features/account-user/messages/en-US'),
  },
  alarm: {
    'zh-CN': () => import('../../features/alarm/messages/zh-CN'),
    'en-US': () => import('../../features/alarm/messages/en-US'),
  },
  alteration: {
    'zh-CN': () => import('../../features/alteration/messages/zh-CN'),
    'en-US': () => import('../../features/alteration/messages/en-US'),
  },
  announcement: {
    'zh-CN': () => import('../../features/announcement/messages/zh-CN'),
    'en-US': () => import('../../features/announcement/messages/en-US'),
  },
  'api-key': {
    'zh-CN': () => import('../../features/api-key/messages/zh-CN'),
    'en-US': () => import('../../features/api-key/messages/en-US'),
  },
  'base-data': {
    'zh-CN': () => import('../../features/base-data/messages/zh-CN'),
    'en-US': () => import('../../features/base-data/messages/en-US'),
  },
  campaign: {
    'zh-CN': () => import('../../features/campaign/messages/zh-CN'),
    'en-US': () => import('../../features/campaign/messages/en-US'),
  },
  'site-map': {
    'zh-CN': () => import('../../features/site-map/messages/zh-CN'),
    'en-US': () => import('../../features/site-map/messages/en-US'),
  },
  'system-quartz-job': {
    'zh-CN': () => import('../../features/system-quartz-job/messages/zh-CN'),
    'en-US': () => import('../../features/system-quartz-job/messages/en-US'),
  },
  'system-message': {
    'zh-CN': () => import('../../features/system-message/messages/zh-CN'),
    'en-US': () => import('../../features/system-message/messages/en-US'),
  },
  'check-rule': {
    'zh-CN': () => import('../../features/check-rule/messages/zh-CN'),
    'en-US': () => import('../../features/check-rule/messages/en-US'),
  },
  dashboard: {
    'zh-CN': () => import('../../features/dashboard/messages/zh-CN'),
    'en-US': () => import('../../features/dashboard/messages/en-US'),
  },
  'device-command': {
    'zh-CN': () => import('../../features/device-command/messages/zh-CN'),
    'en-US': () => import('../../features/device-command/messages/en-US'),
  },
  'device-config': {
    'zh-CN': () => import('../../features/device-config/messages/zh-CN'),
    'en-US': () => import('../../features/device-config/messages/en-US'),
  },
  'device-group': {
    'zh-CN': () => import('../../features/device-group/messages/zh-CN'),
    'en-US': () => import('../../features/device-group/messages/en-US'),
  },
  'device-log': {
    'zh-CN': () => import('../../features/device-log/messages/zh-CN'),
    'en-US': () => import('../../features/device-log/messages/en-US'),
  },
  'device-token': {
    'zh-CN': () => import('../../features/device-token/messages/zh-CN'),
    'en-US': () => import('../../features/device-token/messages/en-US'),
  },
  device: {
    'zh-CN': () => import('../../features/device/messages/zh-CN'),
    'en-US': () => import('../../features/device/messages/en-US'),
  },
  firmware: {
    'zh-CN': () => import('../../features/firmware/messages/zh-CN'),
    'en-US': () => import('../../features/firmware/messages/en-US'),
  },
  'online-form': {
    'zh-CN': () => import('../../features/online-form/messages/zh-CN'),
    'en-US': () => import('../../features/online-form/messages/en-US'),
  },
  register: {
    'zh-CN': () => import('../../features/register/messages/zh-CN'),
    'en-US': () => import('../../features/register/messages/en-US'),
  },
  sso: {
    'zh-CN': () => import('../../features/sso/messages/zh-CN'),
    'en-US': () => import('../../features/sso/messages/en-US'),
  },
  'system-company': {
    'zh-CN': () => import('../../features/system-company/messages/zh-CN'),
    'en-US': () => import('../../features/system-company/messages/en-US'),
  },
  'system-dict': {
    'zh-CN': () => import('../../features/system-dict/messages/zh-CN'),
    'en-US': () => import('../../features/system-dict/messages/en-US'),
  },
  'system-log': {
    'zh-CN': () => import('../../features/system-log/messages/zh-CN'),
    'en-US': () => import('../../features/system-log/messages/en-US'),
  },
  'system-monitor': {
    'zh-CN': () => import('../../features/system-monitor/messages/zh-CN'),
    'en-US': () => import('../../features/system-monitor/messages/en-US'),
  },
  'system-oss-file': {
    'zh-CN': () => import('../../features/system-oss-file/messages/zh-CN'),
    'en-US': () => import('../../features/system-oss-file/messages/en-US'),
  },
  'test-home': {
    'zh-CN': () => import('../../features/test-home/messages/zh-CN'),
    'en-US': () => import('../../features/test-home/messages/en-US'),
  },
  'user-announcement': {
    'zh-CN': () => import('../../features/user-announcement/messages/zh-CN'),
    'en-US': () => import('../../features/user-announcement/messages/en-US'),
  },
} satisfies Record<string, CatalogLoaders>;

export type FeatureCatalog = keyof typeof FEATURE_CATALOGS;

export function isFeatureCatalog(namespace: string): namespace is FeatureCatalog {
  return namespace in FEATURE_CATALOGS;
}
