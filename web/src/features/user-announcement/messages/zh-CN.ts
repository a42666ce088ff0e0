import type { Widen } from '../../../shared/i18n-catalog';

/**
 * Chinese texts of this feature, loaded with the pages that show it (app/i18n/feature-catalogs.ts).
 * The English file must have exactly these keys (checked by type and test).
 */
const zhCN = {
  announcement: {
    readFlag: '阅读状态',
    readFlags: {
      '0': '未读',
      '1': '已读',
    },
    readAll: '全部标记已读',
  },
} as const;

export type Messages = Widen<typeof zhCN>;

export default zhCN;
