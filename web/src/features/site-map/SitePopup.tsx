import type { TSite } from '@blrms/contracts';
import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { HEALTH_COLOURS } from './site-health';

/** A site's counts and the way to its devices (the device list filtered by the location). */
export function SitePopup({ site }: { site: TSite }) {
  const { t } = useTranslation();
  const rows: [label: string, value: number, testId: string][] = [
    [t('siteMap.popup.total'), site.total, 'total'],
    [t('siteMap.popup.online'), site.online, 'online'],
    [t('siteMap.popup.offline'), site.offline, 'offline'],
    [t('siteMap.popup.alarms'), site.alarms, 'alarms'],
  ];
  return (
    <div className="site-popup" data-testid="site-popup">
      <Typography.Text strong className="site-popup__name">
        <span
          className="site-popup__dot"
          style={{
            background: HEALTH_COLOURS[site.health].fill,
            borderColor: HEALTH_COLOURS[site.health].stroke,
          }}
        />
        {site.name}
      </Typography.Text>
      {site.path !== site.name && (
        <Typography.Text type="secondary" className="site-popup__path">
          {site.path}
        </Typography.Text>
      )}
      <dl className="site-popup__counts">
        {rows.map(([label, value, testId]) => (
          <div key={testId}>
            <dt>{label}</dt>
            <dd data-testid={`site-popup-${testId}`}>{value}</dd>
          </div>
        ))}
      </dl>
      <Link
        to={`/device/list?locationId=${encodeURIComponent(site.id)}`}
        data-testid="site-popup-devices"
      >
        {t('siteMap.popup.devices')}
      </Link>
    </div>
  );
}
