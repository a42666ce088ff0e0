import type { Widen } from '../../../shared/i18n-catalog';

/**
 * Chinese texts of this feature, loaded with the pages that show it (app/i18n/feature-catalogs.ts).
 * The English file must have exactly these keys (checked by type and test).
 */
const zhCN = {
  sso: {
    signingIn: '正在登录…',
    denied: '已在身份提供方取消登录',
  },
} as const;

export type Messages = Widen<typeof zhCN>;

export default zhCN;
