import type { TAlarmCounts } from '@blrms/contracts';
import { ALARM_SEVERITIES } from '@blrms/contracts';
import { Card, Col, Row, Statistic, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAlarmCounts } from '../../shared/alarm/use-alarm-counts';
import { formatNumber } from '../../shared/format';
import { alarmListLink } from './alarm-filters';
import { SEVERITY_COLORS } from './AlarmTags';
import './alarm.css';

/**
 * Open alarms by severity, each with its unacknowledged ones, each a link to the list filtered to
 * that severity's open alarms.
 */
export function SeverityFigures({ counts, loading }: { counts?: TAlarmCounts; loading: boolean }) {
  const { t } = useTranslation();
  return (
    <Row gutter={[16, 16]} data-testid="alarm-figures">
      {ALARM_SEVERITIES.map((severity) => (
        <Col xs={12} sm={6} key={severity}>
          <Link
            to={alarmListLink(severity, ['active', 'acknowledged'])}
            className="alarm-figure"
            data-testid={`alarm-figure-${severity}`}
          >
            <Statistic
              title={t(`alarm.severities.${severity}`)}
              value={counts?.open[severity] ?? 0}
              loading={loading}
              formatter={(v) => formatNumber(Number(v))}
              valueStyle={{ color: counts?.open[severity] ? SEVERITY_COLORS[severity] : undefined }}
            />
            <Typography.Text type="secondary">
              {t('alarm.unacknowledged', { count: counts?.unacknowledged[severity] ?? 0 })}
            </Typography.Text>
          </Link>
        </Col>
      ))}
    </Row>
  );
}

/** The figures in a card of their own, above the alarm list. */
export function AlarmSeverityFiguresCard(props: { counts?: TAlarmCounts; loading: boolean }) {
  return (
    <Card size="small">
      <SeverityFigures {...props} />
    </Card>
  );
}

/**
 * The dashboard's card: open alarms by severity, live through the counts the header's alarm count
 * keeps up to date (as on the alarm list page).
 */
export function AlarmSeverityCard() {
  const { t } = useTranslation();
  const counts = useAlarmCounts();
  return (
    <Card
      title={t('alarm.countsTitle')}
      extra={<Link to="/alarm/list">{t('alarm.viewAll')}</Link>}
      data-testid="alarm-severity-card"
    >
      <SeverityFigures counts={counts.data} loading={counts.isPending} />
    </Card>
  );
}
