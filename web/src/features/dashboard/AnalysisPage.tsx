import { FileSearchOutlined, UserOutlined } from '@ant-design/icons';
import type { TSysLog } from '@blrms/contracts';
import type { TableColumnsType } from 'antd';
import {
  Avatar,
  Card,
  Col,
  Descriptions,
  Empty,
  Flex,
  Row,
  Skeleton,
  Space,
  Statistic,
  Table,
  Tag,
  Typography,
} from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { getCompanies } from '../../api/session';
import { formatDateTime, formatNumber } from '../../shared/format';
import { Authorized } from '../../shared/permission/Authorized';
import { useHasAction } from '../../shared/permission/use-has-action';
import { useCurrentUserDeparts, useDepartName } from '../../shared/use-current-user-departs';
import { useLoginUser } from '../../shared/use-login-user';
import { AlarmSeverityCard } from '../alarm/AlarmSeverityCard';
import { DeviceOverview } from './DeviceOverview';
import { greetingFor } from './greeting';
import { useLastLogins, useLogInfo, useVisitInfo } from './queries';
import { VisitChart } from './VisitChart';

export default function AnalysisPage() {
  const { t } = useTranslation();
  const user = useLoginUser();
  const departs = useCurrentUserDeparts();
  const departName = useDepartName();
  const logInfo = useLogInfo();
  const visitInfo = useVisitInfo();
  const lastLogins = useLastLogins();
  const canListDevices = useHasAction('device:list');
  const canListAlarms = useHasAction('alarm:list');

  const greeting = t(`dashboard.greeting.${greetingFor(new Date().getHours())}`);
  const name = user?.realname || user?.username || '';
  const currentDepart = departs.data?.list.find((d) => d.orgCode === departs.data?.orgCode);
  const company = getCompanies().find((c) => c.id === user?.companyId) ?? getCompanies()[0];

  const stats = [
    { key: 'todayVisit', value: logInfo.data?.todayVisitCount },
    { key: 'todayIp', value: logInfo.data?.todayIp },
    { key: 'totalVisit', value: logInfo.data?.totalVisitCount },
  ] as const;

  const loginColumns: TableColumnsType<TSysLog> = [
    {
      title: t('dashboard.loginTime'),
      dataIndex: 'createTime',
      width: 180,
      render: (v: string) => formatDateTime(v),
    },
    { title: t('dashboard.ip'), dataIndex: 'ip', width: 140 },
    { title: t('dashboard.content'), dataIndex: 'logContent', ellipsis: true },
  ];

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} data-testid="dashboard">
      <Card>
        <Flex justify="space-between" align="center" wrap gap={16}>
          <Space size={16} align="center">
            <Avatar size={56} src={user?.avatar || undefined} icon={<UserOutlined />} />
            <div>
              <Typography.Title level={4} style={{ margin: 0 }} data-testid="dashboard-greeting">
                {t('dashboard.welcome', { greeting, name })}
              </Typography.Title>
              <Typography.Text type="secondary">{t('dashboard.intro')}</Typography.Text>
            </div>
          </Space>
          <Authorized action="system:log:list">
            <Link to="/system/log" data-testid="dashboard-view-logs">
              <FileSearchOutlined /> {t('dashboard.viewLogs')}
            </Link>
          </Authorized>
        </Flex>
      </Card>

      {canListAlarms && <AlarmSeverityCard />}

      {canListDevices && <DeviceOverview />}

      <Row gutter={[16, 16]}>
        {stats.map(({ key, value }) => (
          <Col xs={24} sm={8} key={key}>
            <Card>
              <Statistic
                title={t(`dashboard.${key}`)}
                value={value ?? 0}
                loading={logInfo.isPending}
                formatter={(v) => formatNumber(Number(v))}
                data-testid={`stat-${key}`}
              />
            </Card>
          </Col>
        ))}
      </Row>

      <Row gutter={[16, 16]}>
        <Col xs={24} lg={16}>
          <Card title={t('dashboard.visitTrend')}>
            {visitInfo.data ? (
              <VisitChart data={visitInfo.data} />
            ) : (
              <Skeleton active paragraph={{ rows: 6 }} />
            )}
          </Card>
        </Col>
        <Col xs={24} lg={8}>
          <Card
            title={t('dashboard.account')}
            style={{ height: '100%' }}
            data-testid="dashboard-account"
          >
            <Descriptions column={1} size="small">
              <Descriptions.Item label={t('dashboard.username')}>
                {user?.username}
              </Descriptions.Item>
              <Descriptions.Item label={t('dashboard.realname')}>
                {user?.realname}
              </Descriptions.Item>
              <Descriptions.Item label={t('dashboard.depart')}>
                {currentDepart ? departName(currentDepart) : t('common.none')}
              </Descriptions.Item>
              <Descriptions.Item label={t('dashboard.company')}>
                {company?.name ?? t('common.none')}
              </Descriptions.Item>
              <Descriptions.Item label={t('dashboard.departs')}>
                {departs.data && departs.data.list.length > 0 ? (
                  <Space size={[0, 8]} wrap>
                    {departs.data.list.map((d) => (
                      <Tag
                        key={d.id}
                        color={d.orgCode === departs.data.orgCode ? 'blue' : undefined}
                      >
                        {departName(d)}
                      </Tag>
                    ))}
                  </Space>
                ) : (
                  t('common.none')
                )}
              </Descriptions.Item>
            </Descriptions>
          </Card>
        </Col>
      </Row>

      <Card title={t('dashboard.lastLogins')}>
        <Table<TSysLog>
          rowKey="id"
          size="small"
          columns={loginColumns}
          dataSource={lastLogins.data ?? []}
          loading={lastLogins.isPending}
          pagination={false}
          scroll={{ x: 480 }}
          locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} /> }}
          data-testid="last-logins"
        />
      </Card>
    </Space>
  );
}
