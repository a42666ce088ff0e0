import type { ProColumns } from '@ant-design/pro-components';
import type { TDevice } from '@blrms/contracts';
import { Space, Tag, Typography } from 'antd';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { DeviceStatusBadge } from '../../shared/device/DeviceStatusBadge';
import { formatDateTime } from '../../shared/format';

type Option = { value: string; label: string };
/** A node of a tree select: a location and the ones under it. */
export type TreeOption = { value: string; title: string; path: string; children: TreeOption[] };

export type ColumnOptions = {
  series: Option[];
  /** The `device_status` dictionary: an administrator words the options; the server checks them. */
  statuses: Option[];
  groups: Option[];
  owners: Option[];
  tokens: Option[];
  goods: Option[];
  vendors: Option[];
  locations: TreeOption[];
  /** The company's tags, with their counts in the label. */
  tags: Option[];
  /** Pin SN left and the actions right (not on a phone, where they would fill the width). */
  pinColumns: boolean;
  actions: (device: TDevice) => ReactNode;
};

const orDash = (value: string | null) => value || '-';

/**
 * The device list's columns and filter fields. Sortable columns carry a `key` from the contract's
 * DEVICE_SORT_COLUMNS; the server sorts.
 */
export function deviceColumns(t: TFunction, options: ColumnOptions): ProColumns<TDevice>[] {
  const select = (items: Option[]) => ({
    valueType: 'select' as const,
    fieldProps: { options: items, showSearch: true, optionFilterProp: 'label' },
  });
  return [
    {
      title: t('device.sn'),
      dataIndex: 'sn',
      key: 'sn',
      width: 170,
      sorter: true,
      fixed: options.pinColumns ? 'left' : undefined,
      render: (_, row) => (
        <Link to={`/device/detail/${row.id}`} data-testid={`device-link-${row.sn}`}>
          {row.sn}
        </Link>
      ),
    },
    // Next to the SN, so that live status changes show without scrolling the wide table.
    {
      title: t('device.status'),
      dataIndex: 'status',
      key: 'status',
      width: 100,
      sorter: true,
      ...select(options.statuses),
      render: (_, row) => (
        <DeviceStatusBadge status={row.status} expectedRestart={row.expectedRestart} />
      ),
    },
    {
      title: t('device.tagCode'),
      dataIndex: 'tagCode',
      width: 220,
      hideInSearch: true,
      ellipsis: true,
      render: (_, row) => (
        <Typography.Text copyable={{ text: row.tagCode }} ellipsis>
          {row.tagCode}
        </Typography.Text>
      ),
    },
    {
      title: t('device.name'),
      dataIndex: 'name',
      key: 'name',
      width: 160,
      sorter: true,
      ellipsis: true,
    },
    {
      title: t('device.tags'),
      dataIndex: 'tags',
      width: 200,
      fieldProps: {
        mode: 'multiple',
        options: options.tags,
        placeholder: t('device.tagsFilterPlaceholder'),
        optionFilterProp: 'value',
        maxTagCount: 'responsive',
      },
      valueType: 'select',
      render: (_, row) =>
        row.tags.length === 0 ? (
          '-'
        ) : (
          <Space size={[0, 4]} wrap>
            {row.tags.map((tag) => (
              <Tag key={tag}>{tag}</Tag>
            ))}
          </Space>
        ),
    },
    {
      title: t('device.place'),
      dataIndex: 'locationId',
      width: 200,
      ellipsis: true,
      valueType: 'treeSelect',
      fieldProps: {
        treeData: options.locations,
        showSearch: true,
        treeNodeFilterProp: 'title',
        treeDefaultExpandAll: true,
        treeNodeLabelProp: 'path',
        placeholder: t('device.placeFilterHint'),
      },
      render: (_, row) => orDash(row.locationPath),
    },
    {
      title: t('device.series'),
      dataIndex: 'series',
      key: 'series',
      width: 100,
      sorter: true,
      ...select(options.series),
      render: (_, row) => row.series,
    },
    {
      title: t('device.model'),
      dataIndex: 'model',
      width: 120,
      hideInSearch: true,
      render: (_, row) => orDash(row.model),
    },
    {
      title: t('device.version'),
      dataIndex: 'version',
      key: 'version',
      width: 120,
      sorter: true,
      render: (_, row) => orDash(row.version),
    },
    {
      title: t('device.group'),
      dataIndex: 'groupId',
      width: 140,
      ellipsis: true,
      ...select([{ value: 'none', label: t('device.noGroup') }, ...options.groups]),
      render: (_, row) => orDash(row.groupName),
    },
    {
      title: t('device.token'),
      dataIndex: 'tokenId',
      width: 140,
      ellipsis: true,
      ...select(options.tokens),
      render: (_, row) => row.tokenName,
    },
    {
      title: t('common.owner'),
      dataIndex: 'ownerId',
      width: 110,
      ...select(options.owners),
      render: (_, row) => row.ownerName,
    },
    {
      title: t('device.lastSeen'),
      dataIndex: 'lastSeenAt',
      key: 'lastSeenAt',
      width: 170,
      sorter: true,
      hideInSearch: true,
      render: (_, row) => (row.lastSeenAt ? formatDateTime(row.lastSeenAt) : '-'),
    },
    {
      title: t('device.ip'),
      dataIndex: 'ip',
      width: 130,
      hideInSearch: true,
      render: (_, row) => orDash(row.ip),
    },
    {
      title: t('device.goods'),
      dataIndex: 'goodsId',
      width: 140,
      ellipsis: true,
      ...select(options.goods),
      render: (_, row) => orDash(row.goodsModel),
    },
    {
      title: t('device.vendor'),
      dataIndex: 'vendorId',
      width: 140,
      ellipsis: true,
      ...select(options.vendors),
      render: (_, row) => orDash(row.vendorName),
    },
    {
      title: t('device.locationNote'),
      dataIndex: 'location',
      width: 140,
      ellipsis: true,
      hideInSearch: true,
      render: (_, row) => orDash(row.location),
    },
    {
      title: t('common.createTime'),
      dataIndex: 'createTime',
      valueType: 'dateTimeRange',
      hideInTable: true,
    },
    {
      title: t('common.createTime'),
      dataIndex: 'createTime',
      key: 'createTime',
      width: 170,
      sorter: true,
      defaultSortOrder: 'descend',
      hideInSearch: true,
      render: (_, row) => formatDateTime(row.createTime),
    },
    {
      title: t('common.remark'),
      dataIndex: 'remark',
      width: 160,
      ellipsis: true,
      hideInSearch: true,
      render: (_, row) => orDash(row.remark),
    },
    {
      title: t('common.actions'),
      key: 'actions',
      width: 170,
      fixed: options.pinColumns ? 'right' : undefined,
      hideInSearch: true,
      hideInSetting: true,
      render: (_, row) => options.actions(row),
    },
  ];
}
