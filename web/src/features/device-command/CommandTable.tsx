import type { TCommandState, TDeviceCommand } from '@blrms/contracts';
import { Table, Typography } from 'antd';
import type { HTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatPageRange } from '../../shared/format';
import type { CommandPage } from './command-page';
import { replyMs } from './command-page';
import { CommandDetails, CommandStateTag, Outcome } from './CommandOutcome';

/** The recent commands of a device, newest first; a row opens to show the command in full. */
export function CommandTable({
  page,
  loading,
  pageNo,
  pageSize,
  onPageNo,
  expanded,
  onExpanded,
}: {
  page: CommandPage | undefined;
  loading: boolean;
  pageNo: number;
  pageSize: number;
  onPageNo: (pageNo: number) => void;
  expanded: string[];
  onExpanded: (ids: string[]) => void;
}) {
  const { t } = useTranslation();
  return (
    <Table<TDeviceCommand>
      rowKey="id"
      size="small"
      loading={loading}
      dataSource={page?.records ?? []}
      scroll={{ x: 760 }}
      locale={{ emptyText: t('deviceCommand.empty') }}
      expandable={{
        expandedRowKeys: expanded,
        onExpandedRowsChange: (keys) => onExpanded(keys.map(String)),
        expandedRowRender: (command) => <CommandDetails command={command} />,
      }}
      pagination={{
        current: pageNo,
        pageSize,
        total: page?.total ?? 0,
        showTotal: formatPageRange,
        hideOnSinglePage: true,
        onChange: onPageNo,
      }}
      onRow={(command) =>
        ({ 'data-testid': `command-row-${command.method}` }) as HTMLAttributes<HTMLElement>
      }
      columns={[
        {
          title: t('deviceCommand.time'),
          dataIndex: 'createTime',
          width: 170,
          render: (value: string) => formatDateTime(value),
        },
        {
          title: t('deviceCommand.method'),
          dataIndex: 'method',
          width: 130,
          render: (method: string) => <Typography.Text code>{method}</Typography.Text>,
        },
        {
          title: t('deviceCommand.stateLabel'),
          dataIndex: 'state',
          width: 110,
          render: (state: TCommandState) => <CommandStateTag state={state} />,
        },
        {
          title: t('deviceCommand.replyIn'),
          key: 'reply',
          width: 100,
          render: (_, command) => {
            const ms = replyMs(command);
            return ms === null ? '-' : t('deviceCommand.ms', { ms });
          },
        },
        {
          title: t('deviceCommand.outcome'),
          key: 'outcome',
          ellipsis: true,
          render: (_, command) => (
            <span data-testid="command-outcome">
              <Outcome command={command} />
            </span>
          ),
        },
        {
          title: t('deviceCommand.by'),
          dataIndex: 'createBy',
          width: 120,
          render: (user: string | null) => user ?? '-',
        },
      ]}
      data-testid="command-table"
    />
  );
}
