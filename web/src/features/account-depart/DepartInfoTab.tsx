import { ProForm, ProFormDigit, ProFormSelect, ProFormText } from '@ant-design/pro-components';
import { ZDepartEdit, type TDepartEdit, type TDepartTreeNode } from '@blrms/contracts';
import { Descriptions } from 'antd';
import { useTranslation } from 'react-i18next';
import { zodRules } from '../../shared/entity/zod-rules';
import { useCategoryOptions } from './categories';

type Props = {
  depart: TDepartTreeNode;
  canEdit: boolean;
  onSave: (values: TDepartEdit) => Promise<unknown>;
};

export function DepartInfoTab({ depart, canEdit, onSave }: Props) {
  const { t } = useTranslation();
  const categories = useCategoryOptions();
  return (
    <>
      <Descriptions size="small" column={1} style={{ marginBottom: 16 }}>
        <Descriptions.Item label={t('departAdmin.orgCode')}>{depart.orgCode}</Descriptions.Item>
      </Descriptions>
      <ProForm<Omit<TDepartEdit, 'id'>>
        name="departEdit"
        key={depart.id}
        disabled={!canEdit}
        submitter={
          canEdit
            ? { searchConfig: { submitText: t('departAdmin.save') }, resetButtonProps: false }
            : false
        }
        initialValues={{
          departName: depart.departName,
          departNameEn: depart.departNameEn ?? '',
          orgCategory: depart.orgCategory,
          departOrder: depart.departOrder,
        }}
        onFinish={async (values) => {
          await onSave({ ...values, id: depart.id });
          return true;
        }}
        style={{ maxWidth: 480 }}
        data-testid="depart-info-form"
      >
        <ProFormText
          name="departName"
          label={t('departAdmin.name')}
          rules={zodRules(ZDepartEdit, 'departName', { required: t('departAdmin.nameRequired') })}
        />
        <ProFormText
          name="departNameEn"
          label={t('departAdmin.nameEn')}
          rules={zodRules(ZDepartEdit, 'departNameEn')}
        />
        <ProFormSelect name="orgCategory" label={t('departAdmin.category')} options={categories} />
        <ProFormDigit
          name="departOrder"
          label={t('departAdmin.order')}
          min={0}
          max={9999}
          fieldProps={{ precision: 0 }}
        />
      </ProForm>
    </>
  );
}
