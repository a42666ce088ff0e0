import { ModalForm, ProFormSelect, ProFormText } from '@ant-design/pro-components';
import { ZPositionAdd, type TDictItem, type TPosition, type TPositionAdd } from '@blrms/contracts';
import { Form } from 'antd';
import { useTranslation } from 'react-i18next';
import { zodRules } from '../../shared/entity/zod-rules';
import { submitForm } from '../../shared/field-errors';

type Props = {
  open: boolean;
  editing: TPosition | null;
  ranks: TDictItem[];
  onClose: () => void;
  onSubmit: (values: TPositionAdd) => Promise<unknown>;
};

export function PositionFormModal({ open, editing, ranks, onClose, onSubmit }: Props) {
  const { t } = useTranslation();
  const [form] = Form.useForm<TPositionAdd>();
  return (
    <ModalForm<TPositionAdd>
      name="position"
      key={editing?.id ?? 'new'}
      form={form}
      title={editing ? t('position.edit') : t('position.add')}
      open={open}
      width={480}
      modalProps={{ destroyOnHidden: true, onCancel: onClose }}
      initialValues={
        editing
          ? { code: editing.code, name: editing.name, postRank: editing.postRank ?? undefined }
          : undefined
      }
      onFinish={async (values) => {
        if (!(await submitForm(form, () => onSubmit(values)))) return false;
        onClose();
        return true;
      }}
      data-testid="position-form"
    >
      <ProFormText
        name="code"
        label={t('position.code')}
        rules={zodRules(ZPositionAdd, 'code', {
          required: t('position.codeRequired'),
          pattern: t('position.codeRule'),
        })}
      />
      <ProFormText
        name="name"
        label={t('position.name')}
        rules={zodRules(ZPositionAdd, 'name', { required: t('position.nameRequired') })}
      />
      <ProFormSelect
        name="postRank"
        label={t('position.rank')}
        rules={zodRules(ZPositionAdd, 'postRank', { required: t('position.rankRequired') })}
        options={ranks.map((r) => ({ value: r.value, label: r.text }))}
      />
    </ModalForm>
  );
}
