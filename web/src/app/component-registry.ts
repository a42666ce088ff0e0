import type { ComponentType } from 'react';
import { createElement, lazy } from 'react';

type PageModule = { default: ComponentType };

export const NotFoundPage = lazy(() => import('../features/exception/NotFoundPage'));

/**
 * Server menu `component` keys → console pages. Every page is its own lazy chunk. A key that
 * is not here renders the not-found page, so a menu ahead of the console never breaks it.
 */
const LOADERS: Record<string, () => Promise<PageModule>> = {
  'dashboard/Analysis': () => import('../features/dashboard/AnalysisPage'),
  'system/LogList': () => import('../features/system-log/LogListPage'),
  'device/TokenList': () => import('../features/device-token/TokenListPage'),
  'device/GroupList': () => import('../features/device-group/GroupListPage'),
  'device/DeviceList': () => import('../features/device/DeviceListPage'),
  'device/DeviceDetail': () => import('../features/device/DeviceDetailPage'),
  'device/DeviceLogList': () => import('../features/device-log/DeviceLogListPage'),
  'device/FirmwareList': () => import('../features/firmware/FirmwareListPage'),
  'device/CampaignList': () => import('../features/campaign/CampaignListPage'),
  'device/CampaignDetail': () => import('../features/campaign/CampaignDetailPage'),
  'system/AnnouncementList': () => import('../features/announcement/AnnouncementListPage'),
  'isps/UserAnnouncement': () => import('../features/user-announcement/UserAnnouncementPage'),
  'account/DepartList': () => import('../features/account-depart/DepartListPage'),
  'account/PositionList': () => import('../features/account-position/PositionListPage'),
  'account/UserList': () => import('../features/account-user/UserListPage'),
  'account/RoleList': () => import('../features/account-role/RoleListPage'),
  'account/PermissionList': () => import('../features/account-permission/PermissionListPage'),
  'system/CompanyList': () => import('../features/system-company/CompanyListPage'),
  'system/CheckRuleList': () => import('../features/check-rule/CheckRuleListPage'),
  'test/TestHome': () => import('../features/test-home/TestHomePage'),
  'isps/ApiKeys': () => import('../features/api-key/ApiKeysPage'),
};

/** The page behind the home path, which every login lands on unless it has a redirect. */
export const HOME_PAGE_COMPONENT = 'dashboard/Analysis';

const loaded = new Map<string, ComponentType>();

function load(componentKey: string, loader: () => Promise<PageModule>): Promise<PageModule> {
  return loader().then((module) => {
    loaded.set(componentKey, module.default);
    return module;
  });
}

/**
 * Once a suspended boundary shows its fallback, React 19 holds the content back for up to 300 ms;
 * a page whose chunk has already arrived (preloaded, or opened before) renders at once instead.
 */
function pageComponent(componentKey: string, loader: () => Promise<PageModule>): ComponentType {
  const LazyPage = lazy(() => load(componentKey, loader));
  return function Page() {
    return createElement(loaded.get(componentKey) ?? LazyPage);
  };
}

const PAGES: Record<string, ComponentType> = Object.fromEntries(
  Object.entries(LOADERS).map(([key, loader]) => [key, pageComponent(key, loader)]),
);

export function pageFor(componentKey: string): ComponentType {
  return PAGES[componentKey] ?? NotFoundPage;
}

/** Whether the console has a page for the key (tabs open only for real pages). */
export function hasPage(componentKey: string): boolean {
  return componentKey in PAGES;
}

/** Starts loading a page's chunk ahead of its route. */
export function preloadPage(componentKey: string): void {
  const loader = LOADERS[componentKey];
  if (loader && !loaded.has(componentKey)) void load(componentKey, loader);
}
