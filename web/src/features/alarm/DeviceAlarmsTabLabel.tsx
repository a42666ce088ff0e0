import { useTranslation } from 'react-i18next';

/** The tab's title, apart from the tab so that the device page loads the table only when opened. */
export function DeviceAlarmsTabLabel() {
  const { t } = useTranslation();
  return <span data-testid="device-tab-alarms">{t('alarm.tab')}</span>;
}
