import type { Widen } from '../../../shared/i18n-catalog';

/**
 * Chinese texts of this feature, loaded with the pages that show it (app/i18n/feature-catalogs.ts).
 * The English file must have exactly these keys (checked by type and test).
 */
const zhCN = {
  deviceLog: {
    retention: {
      button: '数据保留',
      title: '设备数据保留',
      days: '保留天数',
      unit: '天',
      hint: '设备上报的数据和事件超过这个天数后自动删除（{{min}} 到 {{max}} 天），对整个平台生效。',
      rule: '请输入 {{min}} 到 {{max}} 之间的整数',
    },
  },
} as const;

export type Messages = Widen<typeof zhCN>;

export default zhCN;
