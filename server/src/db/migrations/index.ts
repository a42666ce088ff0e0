import type { Migration } from 'kysely';
import * as foundation from './20250601000000-foundation.js';
import * as devices from './20261121000100-devices.js';
import * as deviceSeenIndexes from './20261121000200-device-seen-indexes.js';
import * as accountsSelfService from './20261121000300-accounts-self-service.js';
import * as announcements from './20261121000400-announcements.js';
import * as deviceSubstringSearch from './20261121000500-device-substring-search.js';
import * as deviceData from './20261121000600-device-data.js';
import * as deviceGateway from './20261121000700-device-gateway.js';
import * as remoteOperations from './20261121000800-remote-operations.js';
import * as configSafety from './20261125000100-config-safety.js';
import * as campaignGating from './20261125000200-campaign-gating.js';
import * as deviceSessions from './20261125000300-device-sessions.js';
import * as operatorPages from './20261125000400-operator-pages.js';
import * as operationLogCodes from './20261125000510-operation-log-codes.js';
import * as loginSecurity from './20261126010100-login-security.js';
import * as apiKeys from './20261126030100-api-keys.js';
import * as systemMessageCodes from './20261126060100-system-message-codes.js';
import * as sso from './20261126020100-sso.js';
import * as storageQuota from './20261126070100-storage-quota.js';
import * as scheduledJobs from './20261127010100-scheduled-jobs.js';
import * as quartzJobs from './20261127100200-quartz-jobs.js';
import * as dictionaries from './20261127100100-dictionaries.js';
import * as ossFiles from './20261127100500-oss-files.js';
import * as messageCenter from './20261127100400-message-center.js';
import * as alarms from './20261127110000-alarms.js';
import * as baseData from './20261127200100-base-data.js';
import * as deviceTags from './20261127200200-device-tags.js';
import * as onlineForms from './20261127200300-online-forms.js';
import * as deviceSearchCaseless from './20261129000100-device-search-caseless.js';
import * as deviceStatsPerStatement from './20261129000200-device-stats-per-statement.js';

/** Every migration, by name; names sort in the order they must run. Add new ones at the end. */
export const migrations: Record<string, Migration> = {
  '20250601000000-foundation': foundation,
  '20261121000100-devices': devices,
  '20261121000200-device-seen-indexes': deviceSeenIndexes,
  '20261121000300-accounts-self-service': accountsSelfService,
  '20261121000400-announcements': announcements,
  '20261121000500-device-substring-search': deviceSubstringSearch,
  '20261121000600-device-data': deviceData,
  '20261121000700-device-gateway': deviceGateway,
  '20261121000800-remote-operations': remoteOperations,
  '20261125000100-config-safety': configSafety,
  '20261125000200-campaign-gating': campaignGating,
  '20261125000300-device-sessions': deviceSessions,
  '20261125000400-operator-pages': operatorPages,
  '20261125000510-operation-log-codes': operationLogCodes,
  '20261126010100-login-security': loginSecurity,
  '20261126030100-api-keys': apiKeys,
  '20261126060100-system-message-codes': systemMessageCodes,
  '20261126020100-sso': sso,
  '20261126070100-storage-quota': storageQuota,
  '20261127010100-scheduled-jobs': scheduledJobs,
  '20261127100200-quartz-jobs': quartzJobs,
  '20261127100100-dictionaries': dictionaries,
  '20261127100500-oss-files': ossFiles,
  '20261127100400-message-center': messageCenter,
  '20261127110000-alarms': alarms,
  '20261127200100-base-data': baseData,
  '20261127200200-device-tags': deviceTags,
  '20261127200300-online-forms': onlineForms,
  '20261129000100-device-search-caseless': deviceSearchCaseless,
  '20261129000200-device-stats-per-statement': deviceStatsPerStatement,
};
