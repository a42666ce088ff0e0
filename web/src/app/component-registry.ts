import type { ComponentType } from 'react';
import { lazy } from 'react';
import { withTexts } from './i18n';
import { preloadable } from './preloadable';

type PageModule = { default: ComponentType };

export const NotFoundPage = lazy(() => import('../features/exception/NotFoundPage'));

/**
 * Server menu `component` keys → console pages. Every page is its own lazy chunk. A key that
 * is not here renders the not-found page, so a menu ahead of the console never breaks it. A page
 * loads with the texts of the features it shows: its own, and those of the components it takes from
 * other features.
 */
const LOADERS: Record<string, () => Promise<PageModule>> = {
  // The dashboard shows the open alarms by severity (the alarm feature's card).
  'dashboard/Analysis': () =>
    withTexts(['alarm', 'dashboard'], import('../features/dashboard/AnalysisPage')),
  'system/LogList': () => withTexts(['system-log'], import('../features/system-log/LogListPage')),
  'system/DictList': () =>
    withTexts(['system-dict'], import('../features/system-dict/DictListPage')),
  'system/OssFileList': () =>
    withTexts(['system-oss-file'], import('../features/system-oss-file/OssFileListPage')),
  'device/TokenList': () =>
    withTexts(['device-token'], import('../features/device-token/TokenListPage')),
  'device/GroupList': () =>
    withTexts(['device-group'], import('../features/device-group/GroupListPage')),
  // The device list's bulk configuration (device-config) rolls out as a campaign, with its fields.
  'device/DeviceList': () =>
    withTexts(['device', 'device-config', 'campaign'], import('../features/device/DeviceListPage')),
  // The device page's configuration, command and alarm tabs come from those features, and use
  // campaigns.
  'device/DeviceDetail': () =>
    withTexts(
      ['alarm', 'campaign', 'device', 'device-command', 'device-config'],
      import('../features/device/DeviceDetailPage'),
    ),
  'device/DeviceLogList': () =>
    withTexts(['device-log'], import('../features/device-log/DeviceLogListPage')),
  'device/FirmwareList': () =>
    withTexts(['firmware'], import('../features/firmware/FirmwareListPage')),
  'device/CampaignList': () =>
    withTexts(['campaign'], import('../features/campaign/CampaignListPage')),
  'device/CampaignDetail': () =>
    withTexts(['campaign'], import('../features/campaign/CampaignDetailPage')),
  'system/AnnouncementList': () =>
    withTexts(['announcement'], import('../features/announcement/AnnouncementListPage')),
  'isps/UserAnnouncement': () =>
    withTexts(['user-announcement'], import('../features/user-announcement/UserAnnouncementPage')),
  'account/DepartList': () =>
    withTexts(['account-depart'], import('../features/account-depart/DepartListPage')),
  'account/PositionList': () =>
    withTexts(['account-position'], import('../features/account-position/PositionListPage')),
  'account/UserList': () =>
    withTexts(['account-user'], import('../features/account-user/UserListPage')),
  'account/RoleList': () =>
    withTexts(['account-role'], import('../features/account-role/RoleListPage')),
  'account/PermissionList': () =>
    withTexts(['account-permission'], import('../features/account-permission/PermissionListPage')),
  'system/CompanyList': () =>
    withTexts(['system-company'], import('../features/system-company/CompanyListPage')),
  'system/QuartzJobList': () =>
    withTexts(['system-quartz-job'], import('../features/system-quartz-job/QuartzJobListPage')),
  'system/MessageTemplateList': () =>
    withTexts(['system-message'], import('../features/system-message/MessageTemplateListPage')),
  'system/MessageList': () =>
    withTexts(['system-message'], import('../features/system-message/MessageListPage')),
  'system/MessageWebhookList': () =>
    withTexts(['system-message'], import('../features/system-message/MessageWebhookListPage')),
  'system/CheckRuleList': () =>
    withTexts(['check-rule'], import('../features/check-rule/CheckRuleListPage')),
  'system/Monitor': () =>
    withTexts(['system-monitor'], import('../features/system-monitor/MonitorPage')),
  'system/OnlineUserList': () =>
    withTexts(['system-monitor'], import('../features/system-monitor/OnlineUserListPage')),
  'alarm/AlarmList': () => withTexts(['alarm'], import('../features/alarm/AlarmListPage')),
  'alarm/AlarmRuleList': () => withTexts(['alarm'], import('../features/alarm/AlarmRuleListPage')),
  'online/FormList': () =>
    withTexts(['online-form'], import('../features/online-form/FormListPage')),
  // One page serves every published form; it reads the form's code from its route.
  'online/FormRecords': () =>
    withTexts(['online-form'], import('../features/online-form/FormRecordsPage')),
  'test/TestHome': () => withTexts(['test-home'], import('../features/test-home/TestHomePage')),
  'isps/ApiKeys': () => withTexts(['api-key'], import('../features/api-key/ApiKeysPage')),
  'base/GoodsList': () => withTexts(['base-data'], import('../features/base-data/GoodsListPage')),
  'base/LocationList': () =>
    withTexts(['base-data'], import('../features/base-data/LocationListPage')),
  'base/VendorList': () => withTexts(['base-data'], import('../features/base-data/VendorListPage')),
  'base/SiteMap': () => withTexts(['site-map'], import('../features/site-map/SiteMapPage')),
};

/** The page behind the home path, which every login lands on unless it has a redirect. */
export const HOME_PAGE_COMPONENT = 'dashboard/Analysis';

const PAGES: Record<string, { Component: ComponentType; load: () => Promise<void> }> =
  Object.fromEntries(Object.entries(LOADERS).map(([key, loader]) => [key, preloadable(loader)]));

export function pageFor(componentKey: string): ComponentType {
  return PAGES[componentKey]?.Component ?? NotFoundPage;
}

/** Whether the console has a page for the key (tabs open only for real pages). */
export function hasPage(componentKey: string): boolean {
  return componentKey in PAGES;
}

/**
 * Loads a page's chunk (and its texts) ahead of its route; from then on the page renders at once,
 * without a fallback. Resolves when it has arrived, or at once for a key with no page.
 */
export function preloadPage(componentKey: string): Promise<void> {
  return PAGES[componentKey]?.load() ?? Promise.resolve();
}
