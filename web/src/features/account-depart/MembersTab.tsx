import { UserAddOutlined } from '@ant-design/icons';
import type { TDepartMember, TDepartTreeNode } from '@blrms/contracts';
import { Button, Input, Modal, Popconfirm, Select, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { MemberParams } from './use-departs';
import { useDepartMembers, useDepartMutations, useMemberCandidates } from './use-departs';

const DEFAULT_PARAMS: MemberParams = { pageNo: 1, pageSize: 10, column: 'username', order: 'asc' };

function AddMembersModal({
  depart,
  open,
  onClose,
}: {
  depart: TDepartTreeNode;
  open: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [keyWord, setKeyWord] = useState('');
  const [picked, setPicked] = useState<string[]>([]);
  const candidates = useMemberCandidates(depart.id, keyWord, open);
  const { addMembers } = useDepartMutations();
  const close = () => {
    setPicked([]);
    setKeyWord('');
    onClose();
  };
  return (
    <Modal
      title={t('departAdmin.addMembers')}
      open={open}
      onCancel={close}
      okButtonProps={{ disabled: picked.length === 0, loading: addMembers.isPending }}
      onOk={() => addMembers.mutate({ depId: depart.id, userIdList: picked }, { onSuccess: close })}
      destroyOnHidden
    >
      <Select
        mode="multiple"
        style={{ width: '100%' }}
        placeholder={t('departAdmin.pickUsers')}
        value={picked}
        onChange={setPicked}
        filterOption={false}
        onSearch={setKeyWord}
        loading={candidates.isFetching}
        notFoundContent={candidates.isFetching ? null : t('departAdmin.noCandidates')}
        options={(candidates.data ?? []).map((u) => ({
          value: u.id,
          label: `${u.realname} (${u.username})`,
        }))}
        data-testid="depart-member-picker"
      />
    </Modal>
  );
}

export function MembersTab({ depart, canManage }: { depart: TDepartTreeNode; canManage: boolean }) {
  const { t } = useTranslation();
  const [params, setParams] = useState<MemberParams>(DEFAULT_PARAMS);
  const [adding, setAdding] = useState(false);
  const [selected, setSelected] = useState<string[]>([]);
  const members = useDepartMembers(depart.id, params);
  const { removeMembers } = useDepartMutations();
  const remove = (userIds: string[]) =>
    removeMembers.mutate({ depId: depart.id, userIds }, { onSuccess: () => setSelected([]) });

  return (
    <>
      <Space style={{ marginBottom: 12 }} wrap>
        <Input.Search
          allowClear
          placeholder={t('departAdmin.searchMember')}
          onSearch={(value) =>
            setParams((p) => ({ ...p, pageNo: 1, username: value.trim() || undefined }))
          }
          style={{ width: 220 }}
        />
        {canManage && (
          <Button
            type="primary"
            icon={<UserAddOutlined />}
            onClick={() => setAdding(true)}
            data-testid="depart-add-member"
          >
            {t('departAdmin.addMembers')}
          </Button>
        )}
        {canManage && selected.length > 0 && (
          <Popconfirm
            title={t('departAdmin.removeMembersConfirm', { count: selected.length })}
            onConfirm={() => remove(selected)}
          >
            <Button danger>{t('departAdmin.removeMembers')}</Button>
          </Popconfirm>
        )}
      </Space>
      <Table<TDepartMember>
        rowKey="id"
        size="small"
        loading={members.isFetching}
        dataSource={members.data?.records ?? []}
        scroll={{ x: 560 }}
        rowSelection={
          canManage
            ? { selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(String)) }
            : undefined
        }
        pagination={{
          current: params.pageNo,
          pageSize: params.pageSize,
          total: members.data?.total ?? 0,
          size: 'small',
          onChange: (pageNo, pageSize) => setParams((p) => ({ ...p, pageNo, pageSize })),
        }}
        columns={[
          { title: t('departAdmin.username'), dataIndex: 'username' },
          { title: t('departAdmin.realname'), dataIndex: 'realname' },
          { title: t('departAdmin.phone'), dataIndex: 'phone' },
          {
            title: t('departAdmin.status'),
            dataIndex: 'status',
            width: 90,
            render: (status: number) =>
              status === 1 ? (
                <Tag color="success">{t('departAdmin.userNormal')}</Tag>
              ) : (
                <Tag color="error">{t('departAdmin.userFrozen')}</Tag>
              ),
          },
          ...(canManage
            ? [
                {
                  title: t('departAdmin.actions'),
                  key: 'actions',
                  width: 90,
                  render: (_: unknown, row: TDepartMember) => (
                    <Popconfirm
                      title={t('departAdmin.removeMemberConfirm', { name: row.realname })}
                      onConfirm={() => remove([row.id])}
                    >
                      <a>{t('departAdmin.remove')}</a>
                    </Popconfirm>
                  ),
                },
              ]
            : []),
        ]}
        data-testid="depart-members"
      />
      <AddMembersModal depart={depart} open={adding} onClose={() => setAdding(false)} />
    </>
  );
}
