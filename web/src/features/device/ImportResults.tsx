import type { TDeviceImportResult, TImportRowError } from '@blrms/contracts';
import { IMPORT_COLUMNS } from '@blrms/contracts';
import type { TableColumnsType } from 'antd';
import { Alert, Col, Result, Row, Statistic, Table, Tabs, Tag, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../shared/format';

type PreviewRow = TDeviceImportResult['preview'][number];

const fieldLabel = (t: TFunction, field: string) =>
  IMPORT_COLUMNS.some((c) => c === field)
    ? t(`device.import.columns.${field as (typeof IMPORT_COLUMNS)[number]}`)
    : t('device.import.wholeRow');

function errorsByRow(result: TDeviceImportResult) {
  const byRow = new Map<number, TImportRowError[]>();
  result.errors.forEach((e) => byRow.set(e.row, [...(byRow.get(e.row) ?? []), e]));
  return byRow;
}

/** The rows of the sheet as read, each marked valid or not, the faulty cells in red. */
function previewColumns(t: TFunction, result: TDeviceImportResult): TableColumnsType<PreviewRow> {
  const byRow = errorsByRow(result);
  return [
    { title: t('device.import.row'), dataIndex: 'row', width: 64, fixed: 'left' },
    {
      title: t('device.import.check'),
      key: 'check',
      width: 90,
      render: (_, row) =>
        byRow.has(row.row) ? (
          <Tag color="error">{t('device.import.invalid')}</Tag>
        ) : (
          <Tag color="success">{t('device.import.valid')}</Tag>
        ),
    },
    ...IMPORT_COLUMNS.map((column) => ({
      title: t(`device.import.columns.${column}`),
      dataIndex: column,
      width: column === 'sn' || column === 'name' ? 160 : 110,
      ellipsis: true,
      render: (value: string, row: PreviewRow) => {
        const problem = byRow.get(row.row)?.find((e) => e.field === column);
        return problem ? (
          <Typography.Text type="danger" title={problem.message}>
            {value || '—'}
          </Typography.Text>
        ) : (
          value
        );
      },
    })),
  ];
}

function ImportSummary({ result }: { result: TDeviceImportResult }) {
  const { t } = useTranslation();
  return (
    <Row gutter={16} style={{ marginBottom: 12 }}>
      <Col span={8}>
        <Statistic
          title={t('device.import.total')}
          value={result.total}
          formatter={(v) => formatNumber(Number(v))}
          data-testid="import-total"
        />
      </Col>
      <Col span={8}>
        <Statistic
          title={t('device.import.validRows')}
          value={result.valid}
          valueStyle={{ color: '#52c41a' }}
          formatter={(v) => formatNumber(Number(v))}
          data-testid="import-valid"
        />
      </Col>
      <Col span={8}>
        <Statistic
          title={t('device.import.invalidRows')}
          value={result.invalid}
          valueStyle={result.invalid > 0 ? { color: '#ff4d4f' } : undefined}
          formatter={(v) => formatNumber(Number(v))}
          data-testid="import-invalid"
        />
      </Col>
    </Row>
  );
}

/** The invalid rows with the field and the reason (the server sends the first ones only). */
function ImportErrorTable({ result }: { result: TDeviceImportResult }) {
  const { t } = useTranslation();
  const columns: TableColumnsType<TImportRowError> = [
    { title: t('device.import.row'), dataIndex: 'row', width: 80 },
    {
      title: t('device.import.field'),
      dataIndex: 'field',
      width: 120,
      render: (field: string) => fieldLabel(t, field),
    },
    { title: t('device.import.reason'), dataIndex: 'message' },
  ];
  return (
    <>
      <Table<TImportRowError>
        rowKey={(e) => `${e.row}-${e.field}-${e.message}`}
        size="small"
        columns={columns}
        dataSource={result.errors}
        pagination={{ pageSize: 8, size: 'small', hideOnSinglePage: true }}
        data-testid="import-errors"
      />
      {result.errors.length < result.invalid && (
        <Typography.Text type="secondary">
          {t('device.import.errorsCut', { shown: formatNumber(result.errors.length) })}
        </Typography.Text>
      )}
    </>
  );
}

/** The preview: what would be imported and what skipped, nothing written yet. */
export function ImportPreview({ result }: { result: TDeviceImportResult }) {
  const { t } = useTranslation();
  return (
    <>
      <Alert
        type={result.invalid > 0 ? 'warning' : 'success'}
        showIcon
        message={t('device.import.previewSummary', {
          valid: formatNumber(result.valid),
          invalid: formatNumber(result.invalid),
        })}
        description={t('device.import.rule')}
        style={{ marginBottom: 12 }}
        data-testid="import-preview-summary"
      />
      <ImportSummary result={result} />
      <Tabs
        items={[
          {
            key: 'rows',
            label: t('device.import.firstRows', { count: result.preview.length }),
            children: (
              <Table<PreviewRow>
                rowKey="row"
                size="small"
                columns={previewColumns(t, result)}
                dataSource={result.preview}
                scroll={{ x: 1200 }}
                pagination={{ pageSize: 8, size: 'small', hideOnSinglePage: true }}
                data-testid="import-preview"
              />
            ),
          },
          {
            key: 'errors',
            label: t('device.import.skippedRows', { count: result.invalid }),
            children: <ImportErrorTable result={result} />,
          },
        ]}
      />
    </>
  );
}

/** The import's result, and the rows it skipped. */
export function ImportDone({ result }: { result: TDeviceImportResult }) {
  const { t } = useTranslation();
  return (
    <>
      <div data-testid="import-result">
        <Result
          status={result.invalid > 0 ? 'warning' : 'success'}
          title={t('device.import.done', { count: result.imported })}
          subTitle={
            result.invalid > 0
              ? t('device.import.doneSkipped', { count: result.invalid })
              : undefined
          }
          style={{ padding: '16px 0' }}
        />
      </div>
      {result.invalid > 0 && <ImportErrorTable result={result} />}
    </>
  );
}
