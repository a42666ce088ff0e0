import type { TConfigVersion, TDeviceSeries } from '@blrms/contracts';
import { Flex, Modal, Table, Tag, Typography, theme } from 'antd';
import type { HTMLAttributes } from 'react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime, formatPageRange } from '../../shared/format';
import { configFields, valueAt, valueFields } from './config-fields';
import { fullLabel } from './config-labels';
import { ConfigValue } from './ConfigValue';
import { useConfigHistory } from './use-device-config';

const PAGE_SIZE = 10;
/** Changed fields listed in a history row before "+n". */
const PATHS_SHOWN = 4;

/** One version's whole configuration, with the fields it changed highlighted. */
function VersionModal({
  version,
  series,
  onClose,
}: {
  version: TConfigVersion;
  series: TDeviceSeries;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const fields = configFields(series);
  const changed = new Set(version.changedPaths);
  const rows = valueFields(fields).map((field) => ({
    field,
    value: valueAt(version.config, field.path),
  }));
  return (
    <Modal
      open
      title={t('deviceConfig.history.versionTitle', { version: version.version })}
      footer={null}
      width={720}
      onCancel={onClose}
      data-testid="config-version-modal"
    >
      <Typography.Paragraph type="secondary">
        {t('deviceConfig.history.versionBy', {
          user: version.changedBy ?? t('deviceConfig.view.platform'),
          time: formatDateTime(version.changedAt),
        })}
      </Typography.Paragraph>
      <Table
        rowKey={(row) => row.field.path}
        size="small"
        pagination={false}
        dataSource={rows}
        scroll={{ x: 480 }}
        onRow={(row) =>
          ({
            style: changed.has(row.field.path) ? { background: token.colorWarningBg } : undefined,
            'data-changed': String(changed.has(row.field.path)),
          }) as HTMLAttributes<HTMLElement>
        }
        columns={[
          {
            title: t('deviceConfig.view.field'),
            key: 'field',
            width: '40%',
            render: (_, row) => fullLabel(t, fields, row.field.path),
          },
          {
            title: t('deviceConfig.history.value'),
            key: 'value',
            render: (_, row) => <ConfigValue field={row.field} value={row.value} />,
          },
        ]}
      />
    </Modal>
  );
}

/** The versions of a device's desired configuration: who changed what, when; click to see one. */
export function ConfigHistory({ deviceId, series }: { deviceId: string; series: TDeviceSeries }) {
  const { t } = useTranslation();
  const [pageNo, setPageNo] = useState(1);
  const [viewing, setViewing] = useState<TConfigVersion | null>(null);
  const history = useConfigHistory({ deviceId, pageNo, pageSize: PAGE_SIZE, order: 'desc' });
  const fields = configFields(series);
  return (
    <section>
      <Typography.Text strong style={{ display: 'block', marginBottom: 8 }}>
        {t('deviceConfig.history.title')}
      </Typography.Text>
      <Table<TConfigVersion>
        rowKey="version"
        size="small"
        loading={history.isPending}
        dataSource={history.data?.records ?? []}
        scroll={{ x: 640 }}
        locale={{ emptyText: t('deviceConfig.history.empty') }}
        onRow={(row) =>
          ({
            onClick: () => setViewing(row),
            style: { cursor: 'pointer' },
            'data-testid': `config-version-${row.version}`,
          }) as HTMLAttributes<HTMLElement>
        }
        pagination={{
          current: pageNo,
          pageSize: PAGE_SIZE,
          total: history.data?.total ?? 0,
          showTotal: formatPageRange,
          hideOnSinglePage: true,
          onChange: setPageNo,
        }}
        columns={[
          {
            title: t('deviceConfig.history.version'),
            dataIndex: 'version',
            width: 80,
            render: (version: number) => `v${version}`,
          },
          {
            title: t('deviceConfig.history.changedAt'),
            dataIndex: 'changedAt',
            width: 170,
            render: (value: string) => formatDateTime(value),
          },
          {
            title: t('deviceConfig.history.changedBy'),
            key: 'changedBy',
            width: 180,
            render: (_, row) => (
              <Flex vertical>
                <span>{row.changedBy ?? t('deviceConfig.view.platform')}</span>
                {row.campaignId && (
                  <Link
                    to={`/device/campaign/${row.campaignId}`}
                    onClick={(e) => e.stopPropagation()}
                  >
                    {t('deviceConfig.history.campaign')}
                  </Link>
                )}
              </Flex>
            ),
          },
          {
            title: t('deviceConfig.history.changed'),
            key: 'changedPaths',
            render: (_, row) => {
              const paths = row.changedPaths;
              if (paths.length === 0) {
                return (
                  <Typography.Text type="secondary">
                    {t('deviceConfig.history.noChange')}
                  </Typography.Text>
                );
              }
              return (
                <Flex wrap gap={4}>
                  {paths.slice(0, PATHS_SHOWN).map((path) => (
                    <Tag key={path} title={path}>
                      {fullLabel(t, fields, path)}
                    </Tag>
                  ))}
                  {paths.length > PATHS_SHOWN && <Tag>+{paths.length - PATHS_SHOWN}</Tag>}
                </Flex>
              );
            },
          },
        ]}
        data-testid="config-history"
      />
      {viewing && (
        <VersionModal version={viewing} series={series} onClose={() => setViewing(null)} />
      )}
    </section>
  );
}
