import type { TOnlineFormMeta, TOnlineHistoryEntry, TOnlineRecord } from '@blrms/contracts';
import { Drawer, Empty, List, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../shared/format';
import { useNarrowScreen } from '../../shared/use-narrow-screen';
import { historyValue } from './form-fields';
import { useRecordHistory } from './use-online-forms';

const ACTION_COLOR: Record<TOnlineHistoryEntry['action'], string> = {
  add: 'green',
  edit: 'blue',
  delete: 'red',
  import: 'purple',
};

/** Who changed the record when, and each field from → to, newest first. */
export function RecordHistoryDrawer({
  form,
  record,
  onClose,
}: {
  form: TOnlineFormMeta;
  record: TOnlineRecord;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const narrow = useNarrowScreen();
  const [pageNo, setPageNo] = useState(1);
  const history = useRecordHistory(form.code, record.id, pageNo);
  const yesNo = (on: boolean) => (on ? t('onlineForm.yes') : t('onlineForm.no'));
  return (
    <Drawer
      open
      width={narrow ? '100%' : 560}
      title={t('onlineForm.history.title')}
      onClose={onClose}
      data-testid="online-history-drawer"
    >
      <List<TOnlineHistoryEntry>
        loading={history.isFetching}
        dataSource={history.data?.records ?? []}
        locale={{ emptyText: <Empty description={t('onlineForm.history.empty')} /> }}
        pagination={
          (history.data?.total ?? 0) > 10
            ? {
                current: pageNo,
                pageSize: 10,
                total: history.data?.total ?? 0,
                onChange: setPageNo,
                size: 'small',
              }
            : false
        }
        renderItem={(entry) => (
          <List.Item key={entry.id} data-testid="online-history-entry">
            <Space direction="vertical" size={4} style={{ width: '100%' }}>
              <Space wrap>
                <Tag color={ACTION_COLOR[entry.action]}>
                  {t(`onlineForm.history.action.${entry.action}`)}
                </Tag>
                <Typography.Text strong>{entry.createBy ?? '—'}</Typography.Text>
                <Typography.Text type="secondary">
                  {formatDateTime(entry.createTime)}
                </Typography.Text>
              </Space>
              {entry.changes.map((change) => (
                <div key={change.key} className="online-history__change">
                  <Typography.Text type="secondary">{change.label}: </Typography.Text>
                  <Typography.Text delete={entry.action !== 'add'}>
                    {historyValue(change.from, yesNo)}
                  </Typography.Text>
                  {' → '}
                  <Typography.Text>{historyValue(change.to, yesNo)}</Typography.Text>
                </div>
              ))}
            </Space>
          </List.Item>
        )}
      />
    </Drawer>
  );
}
