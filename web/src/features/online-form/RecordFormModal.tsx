import type { TOnlineFormMeta, TOnlineRecord } from '@blrms/contracts';
import type { ButtonProps } from 'antd';
import { Alert, Form, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { serverMessage, useEntityMutation } from '../../shared/entity/use-entity-mutation';
import { showFieldErrors } from '../../shared/field-errors';
import {
  fieldLabel,
  initialFormValues,
  recordFieldOf,
  recordFromForm,
  type FormValue,
} from './form-fields';
import { RecordFields } from './RecordFields';
import { RECORDS_KEY, recordApi } from './use-online-forms';

/**
 * Add or edit a record: one input per field of the definition, checked as the user goes; what
 * the server refuses (a dictionary item, a taken unique value) lands under the field it names.
 */
export function RecordFormModal({
  form: definition,
  record,
  onClose,
}: {
  form: TOnlineFormMeta;
  record: TOnlineRecord | null;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const [form] = Form.useForm<Record<string, FormValue>>();
  const { code, fields } = definition;
  const save = useEntityMutation({
    mutationFn: (values: Record<string, FormValue>) => {
      const data = recordFromForm(fields, values);
      return record ? recordApi.edit(code, { id: record.id, data }) : recordApi.add(code, { data });
    },
    invalidates: [[RECORDS_KEY, code]],
    successMessage: serverMessage,
  });
  const stale = record?.stale ?? [];

  return (
    <Modal
      open
      title={record ? t('onlineForm.record.edit') : t('onlineForm.record.add')}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      confirmLoading={save.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
      width={640}
      okButtonProps={{ 'data-testid': 'online-record-save' } as ButtonProps}
      data-testid="online-record-modal"
    >
      {stale.length > 0 && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          message={t('onlineForm.record.staleValues', {
            fields: fields
              .filter((f) => stale.includes(f.key))
              .map((f) => `${fieldLabel(f, i18n.language)}: ${record?.display[f.key] ?? ''}`)
              .join('; '),
          })}
        />
      )}
      <Form
        form={form}
        layout="vertical"
        initialValues={initialFormValues(fields, record)}
        onFinish={(values) =>
          save.mutate(values, {
            onSuccess: onClose,
            onError: (error) => showFieldErrors(form, error, (path) => recordFieldOf(fields, path)),
          })
        }
      >
        <RecordFields fields={fields} display={record?.display} />
      </Form>
    </Modal>
  );
}
