import { App as AntApp, ConfigProvider } from 'antd';
import enUS from 'antd/locale/en_US';
import zhCN from 'antd/locale/zh_CN';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useMediaQuery } from '../shared/use-media-query';
import { useSettings } from './settings/settings-store';

/** The system setting "reduce motion" (or "remove animations"). */
const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';

/**
 * antd's configuration of the console: its language and the theme (the primary colour of the
 * settings). When the system asks to reduce motion, dialogs do not zoom in and drawers and menus
 * do not slide (WCAG 2.3.3): they move what the user is about to click. The console renders inside
 * it, and so does the rehearsal of the console's first page while the user signs in
 * (console/rehearsal.tsx): the same theme gives the same style cache keys, so the styles generated
 * then are the ones the console finds.
 */
export function ConsoleProviders({ children }: { children: ReactNode }) {
  const { primaryColor } = useSettings();
  const { i18n } = useTranslation();
  const reducedMotion = useMediaQuery(REDUCED_MOTION);
  return (
    <ConfigProvider
      locale={i18n.language === 'en-US' ? enUS : zhCN}
      theme={{ token: { colorPrimary: primaryColor, motion: !reducedMotion } }}
    >
      <AntApp>{children}</AntApp>
    </ConfigProvider>
  );
}
