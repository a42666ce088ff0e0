import { PlusOutlined } from '@ant-design/icons';
import { ProTable } from '@ant-design/pro-components';
import { TOKEN_SORT_COLUMNS, ZDeviceTokenQuery, type TDeviceToken } from '@blrms/contracts';
import { Button } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useListPage } from '../../shared/entity/use-list-page';
import { Authorized } from '../../shared/permission/Authorized';
import { NewKeyModal } from './NewKeyModal';
import { RemovedSnsModal } from './RemovedSnsModal';
import { TokenFormModal } from './TokenFormModal';
import type { TokenParams } from './use-tokens';
import { useTokens } from './use-tokens';
import { useTokenColumns } from './use-token-columns';

type TokenSearch = { name?: string; enabled?: 'true' | 'false' };

const DEFAULT_PARAMS: TokenParams = {
  pageNo: 1,
  pageSize: 10,
  column: 'createTime',
  order: 'desc',
};

type Form = { open: false } | { open: true; editing: TDeviceToken | null };

/**
 * Token keys (spec section 2): the secrets devices connect with. Create, edit, enable or disable,
 * regenerate and delete; the key is masked, revealed and copied on request. Each token lists the
 * devices deleted from it, which it refuses until they are allowed again.
 */
export default function TokenListPage() {
  const { t } = useTranslation();
  const list = useListPage<TokenParams, TokenSearch>({
    defaults: DEFAULT_PARAMS,
    filters: (values) => ({ name: values.name?.trim() || undefined, enabled: values.enabled }),
    sort: { columns: TOKEN_SORT_COLUMNS, fallback: 'createTime' },
    url: ZDeviceTokenQuery,
  });
  const [form, setForm] = useState<Form>({ open: false });
  const [newKey, setNewKey] = useState<{
    code: string;
    key: string;
    regenerated: boolean;
  } | null>(null);
  const [removedOf, setRemovedOf] = useState<TDeviceToken | null>(null);
  const tokens = useTokens(list.params);
  const columns = useTokenColumns({
    onEdit: (token) => setForm({ open: true, editing: token }),
    onShowRemoved: setRemovedOf,
    onKeyRegenerated: (token, key) => setNewKey({ code: token.code, key, regenerated: true }),
  });

  return (
    <>
      <ProTable<TDeviceToken, TokenSearch>
        rowKey="id"
        showSorterTooltip={{ target: 'sorter-icon' }}
        headerTitle={t('deviceToken.title')}
        {...list.tableProps(tokens)}
        columns={list.withSortOrder(columns)}
        search={{ labelWidth: 'auto' }}
        toolBarRender={() => [
          <Authorized action="token:add" key="add">
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => setForm({ open: true, editing: null })}
              data-testid="token-add"
            >
              {t('common.add')}
            </Button>
          </Authorized>,
        ]}
        scroll={{ x: 1580 }}
        data-testid="token-table"
      />
      <TokenFormModal
        open={form.open}
        editing={form.open ? form.editing : null}
        onClose={() => setForm({ open: false })}
        onCreated={(created) => setNewKey({ ...created, regenerated: false })}
      />
      <RemovedSnsModal token={removedOf} onClose={() => setRemovedOf(null)} />
      <NewKeyModal
        token={newKey}
        regenerated={newKey?.regenerated ?? false}
        onClose={() => setNewKey(null)}
      />
    </>
  );
}
