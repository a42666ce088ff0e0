import { ModalForm, ProFormDigit, ProFormSelect, ProFormText } from '@ant-design/pro-components';
import { ZDepartAdd, type TDepartAdd, type TDepartTreeNode } from '@blrms/contracts';
import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { zodRules } from '../../shared/entity/zod-rules';
import { useCategoryOptions } from './categories';

type Props = {
  open: boolean;
  parent: TDepartTreeNode | null;
  onClose: () => void;
  onSubmit: (values: TDepartAdd) => Promise<unknown>;
};

/** Adds a department at the top level or under `parent`; the server gives it its org code. */
export function DepartFormModal({ open, parent, onClose, onSubmit }: Props) {
  const { t } = useTranslation();
  const categories = useCategoryOptions();
  return (
    <ModalForm<TDepartAdd>
      name="departAdd"
      key={parent?.id ?? 'top'}
      title={parent ? t('departAdmin.addChild') : t('departAdmin.addTop')}
      open={open}
      width={480}
      modalProps={{ destroyOnHidden: true, onCancel: onClose }}
      initialValues={{ orgCategory: parent ? '2' : '1', departOrder: 0 }}
      onFinish={async (values) => {
        await onSubmit({ ...values, parentId: parent?.id ?? null });
        onClose();
        return true;
      }}
      data-testid="depart-form"
    >
      {parent && (
        <Typography.Paragraph type="secondary">
          {t('departAdmin.parent')}: {parent.title} ({parent.orgCode})
        </Typography.Paragraph>
      )}
      <ProFormText
        name="departName"
        label={t('departAdmin.name')}
        rules={zodRules(ZDepartAdd, 'departName', { required: t('departAdmin.nameRequired') })}
      />
      <ProFormText
        name="departNameEn"
        label={t('departAdmin.nameEn')}
        rules={zodRules(ZDepartAdd, 'departNameEn')}
      />
      <ProFormSelect
        name="orgCategory"
        label={t('departAdmin.category')}
        rules={zodRules(ZDepartAdd, 'orgCategory')}
        options={categories}
      />
      <ProFormDigit
        name="departOrder"
        label={t('departAdmin.order')}
        min={0}
        max={9999}
        fieldProps={{ precision: 0 }}
      />
    </ModalForm>
  );
}
