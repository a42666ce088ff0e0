import { EditOutlined } from '@ant-design/icons';
import type { TConfigState, TDevice, TDeviceConfigState } from '@blrms/contracts';
import {
  Alert,
  Button,
  Descriptions,
  Empty,
  Flex,
  Result,
  Skeleton,
  Switch,
  Table,
  Tag,
  Typography,
  theme,
} from 'antd';
import type { TFunction } from 'i18next';
import type { HTMLAttributes } from 'react';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../shared/format';
import { Authorized } from '../../shared/permission/Authorized';
import type { ConfigRow } from './config-diff';
import { compareConfigs } from './config-diff';
import type { ConfigField } from './config-fields';
import { configFields } from './config-fields';
import { failureText, fullLabel } from './config-labels';
import { ConfigHistory } from './ConfigHistory';
import { ConfigValue } from './ConfigValue';
import { useDeviceConfig, useLiveDeviceConfig } from './use-device-config';

const ConfigEditDrawer = lazy(() => import('./ConfigEditDrawer'));

const STATE_COLORS: Record<TConfigState, string> = {
  none: 'default',
  pending: 'processing',
  applied: 'success',
  failed: 'error',
};

function ConfigStateTag({ state }: { state: TConfigState }) {
  const { t } = useTranslation();
  return (
    <Tag color={STATE_COLORS[state]} data-testid="config-state">
      {t(`deviceConfig.state.${state}`)}
    </Tag>
  );
}

function versionText(t: TFunction, config: TDeviceConfigState) {
  const { desired, reported } = config;
  return {
    desired: desired
      ? t('deviceConfig.view.desiredVersion', {
          version: desired.version,
          user: desired.changedBy ?? t('deviceConfig.view.platform'),
          time: formatDateTime(desired.changedAt),
        })
      : t('deviceConfig.view.noDesired'),
    reported: reported
      ? t('deviceConfig.view.reportedVersion', {
          version: reported.version,
          time: formatDateTime(reported.reportedAt),
        })
      : t('deviceConfig.view.noReported'),
  };
}

/** Why the state is what it is: the device's refusal or silence, or what the platform waits for. */
function StateNotice({ config, online }: { config: TDeviceConfigState; online: boolean }) {
  const { t } = useTranslation();
  if (config.state === 'failed') {
    return (
      <Alert
        type="error"
        showIcon
        message={t('deviceConfig.view.failed', { version: config.desired?.version ?? 0 })}
        description={failureText(t, config.failure)}
        data-testid="config-error"
      />
    );
  }
  if (config.state !== 'pending') return null;
  const message =
    config.sentAt && online
      ? t('deviceConfig.view.pendingSent', { time: formatDateTime(config.sentAt) })
      : t('deviceConfig.view.pendingOffline');
  return <Alert type="info" showIcon message={message} data-testid="config-pending" />;
}

/** The fields in which the device differs from what the platform wants, with both values. */
function DiffList({ rows, fields }: { rows: ConfigRow[]; fields: ConfigField[] }) {
  const { t } = useTranslation();
  const differing = rows.filter((row) => row.differs);
  if (differing.length === 0) return null;
  return (
    <Alert
      type="warning"
      showIcon
      message={t('deviceConfig.view.differs', { count: differing.length })}
      description={
        <ul style={{ margin: 0, paddingInlineStart: 18 }} data-testid="config-diff">
          {differing.map((row) => (
            <li key={row.path} data-testid={`config-diff-${row.path}`}>
              <Typography.Text strong>{fullLabel(t, fields, row.path)}</Typography.Text>{' '}
              <Typography.Text code>{row.path}</Typography.Text>
              {': '}
              {t('deviceConfig.view.diffReported')}{' '}
              <ConfigValue field={row.field} value={row.reported} absent="unknown" />
              {' → '}
              {t('deviceConfig.view.diffDesired')}{' '}
              <ConfigValue field={row.field} value={row.desired} />
            </li>
          ))}
        </ul>
      }
    />
  );
}

/**
 * The configuration tab of a device's page: the state of its desired configuration (pending,
 * applied, failed with the reason), desired and reported side by side with the fields that
 * differ highlighted and those the device has not reported shown as unknown, the editor, and the
 * history of versions. Live from the device's channel.
 */
export function DeviceConfigTab({ device }: { device: TDevice }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const config = useDeviceConfig(device.id);
  useLiveDeviceConfig(device.id);
  const [editing, setEditing] = useState(false);
  const [onlyDiffs, setOnlyDiffs] = useState(false);

  if (config.isPending) return <Skeleton active paragraph={{ rows: 6 }} />;
  if (config.isError) {
    return (
      <Result
        status="error"
        title={t('deviceConfig.view.loadFailed')}
        extra={
          <Button onClick={() => void config.refetch()}>{t('deviceConfig.view.retry')}</Button>
        }
      />
    );
  }

  const state = config.data;
  const fields = configFields(state.series);
  const rows = compareConfigs(
    fields,
    state.desired?.config ?? null,
    state.reported?.config ?? null,
  );
  const versions = versionText(t, state);
  const hasAny = state.desired !== null || state.reported?.config;
  const shown = onlyDiffs ? rows.filter((row) => row.differs) : rows;
  const editButton = (
    <Authorized action="device:config">
      <Button
        type="primary"
        icon={<EditOutlined />}
        onClick={() => setEditing(true)}
        data-testid="config-edit"
      >
        {t('deviceConfig.view.edit')}
      </Button>
    </Authorized>
  );

  return (
    <Flex vertical gap={16} data-testid="device-config">
      <Flex justify="space-between" align="flex-start" wrap gap={12}>
        <Descriptions
          size="small"
          column={{ xs: 1, sm: 1, md: 3 }}
          style={{ flex: 1, minWidth: 240 }}
          items={[
            {
              key: 'state',
              label: t('deviceConfig.view.state'),
              children: <ConfigStateTag state={state.state} />,
            },
            {
              key: 'desired',
              label: t('deviceConfig.view.desired'),
              children: <span data-testid="config-desired-version">{versions.desired}</span>,
            },
            {
              key: 'reported',
              label: t('deviceConfig.view.reported'),
              children: <span data-testid="config-reported-version">{versions.reported}</span>,
            },
          ]}
        />
        {editButton}
      </Flex>
      <StateNotice config={state} online={device.status === 'online'} />
      <DiffList rows={rows} fields={fields} />
      {hasAny ? (
        <section>
          <Flex justify="space-between" align="center" wrap gap={8} style={{ marginBottom: 8 }}>
            <Typography.Text strong>{t('deviceConfig.view.compare')}</Typography.Text>
            <Flex gap={8} align="center">
              <Switch
                size="small"
                checked={onlyDiffs}
                onChange={setOnlyDiffs}
                data-testid="config-only-diffs"
              />
              <Typography.Text>{t('deviceConfig.view.onlyDiffs')}</Typography.Text>
            </Flex>
          </Flex>
          <Table<ConfigRow>
            rowKey="path"
            size="small"
            pagination={false}
            dataSource={shown}
            onRow={(row) =>
              ({
                style: row.differs ? { background: token.colorWarningBg } : undefined,
                'data-testid': `config-compare-${row.path}`,
                'data-differs': String(row.differs),
              }) as HTMLAttributes<HTMLElement>
            }
            locale={{ emptyText: t('deviceConfig.view.noDiffs') }}
            columns={[
              {
                title: t('deviceConfig.view.field'),
                key: 'field',
                width: '30%',
                render: (_, row) => fullLabel(t, fields, row.path),
              },
              {
                title: t('deviceConfig.view.desired'),
                key: 'desired',
                render: (_, row) => (
                  <span data-testid="config-desired-value">
                    <ConfigValue field={row.field} value={row.desired} />
                  </span>
                ),
              },
              {
                title: t('deviceConfig.view.reported'),
                key: 'reported',
                render: (_, row) => (
                  <span data-testid="config-reported-value">
                    <ConfigValue field={row.field} value={row.reported} absent="unknown" />
                  </span>
                ),
              },
            ]}
            data-testid="config-compare"
          />
        </section>
      ) : (
        <Empty
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          description={t('deviceConfig.view.nothingYet')}
          data-testid="config-empty"
        />
      )}
      <ConfigHistory deviceId={device.id} series={state.series} />
      {editing && (
        <Suspense fallback={null}>
          <ConfigEditDrawer device={device} state={state} onClose={() => setEditing(false)} />
        </Suspense>
      )}
    </Flex>
  );
}
