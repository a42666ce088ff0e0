import { RPC_TIMEOUT_DEFAULT_SEC, RPC_TIMEOUT_MAX_SEC, ZDeviceCommandSend } from '@blrms/contracts';
import { Alert, Form, Input, InputNumber, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { zodRules } from '../../shared/entity/zod-rules';
import { parseParams } from './command-page';
import type { CommandInput } from './use-device-commands';

type CustomValues = { method: string; params: string; timeoutSec: number };
export type SendOutcome = { sent: true } | { sent: false; refusal: string | null };

/** A free-form command: any method the device knows, with JSON parameters (admins only). */
export function CustomCommandModal({
  open,
  sending,
  onSend,
  onClose,
}: {
  open: boolean;
  sending: boolean;
  onSend: (input: Omit<CommandInput, 'deviceId'>) => Promise<SendOutcome>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<CustomValues>();
  const [refusal, setRefusal] = useState<string | null>(null);
  const close = () => {
    setRefusal(null);
    onClose();
  };
  const submit = async () => {
    let values: CustomValues;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    const parsed = parseParams(values.params ?? '');
    if ('problem' in parsed) return; // The field's rule has said why.
    const outcome = await onSend({
      method: values.method.trim(),
      params: parsed.params,
      timeoutSec: values.timeoutSec,
    });
    if (outcome.sent) close();
    else setRefusal(outcome.refusal);
  };
  return (
    <Modal
      open={open}
      title={t('deviceCommand.custom.title')}
      okText={t('deviceCommand.custom.send')}
      cancelText={t('common.cancel')}
      confirmLoading={sending}
      onOk={() => void submit()}
      onCancel={close}
      destroyOnHidden
      data-testid="command-custom-modal"
    >
      {refusal && (
        <Alert
          type="error"
          showIcon
          message={refusal}
          style={{ marginBottom: 16 }}
          data-testid="command-custom-refused"
        />
      )}
      <Form<CustomValues>
        form={form}
        layout="vertical"
        initialValues={{ params: '', timeoutSec: RPC_TIMEOUT_DEFAULT_SEC }}
        preserve={false}
      >
        <Form.Item
          name="method"
          label={t('deviceCommand.custom.method')}
          extra={t('deviceCommand.custom.methodHint')}
          rules={zodRules(ZDeviceCommandSend, 'method', {
            required: t('deviceCommand.custom.methodRequired'),
            pattern: t('deviceCommand.custom.methodRule'),
          })}
        >
          <Input placeholder="set_led" autoComplete="off" data-testid="command-custom-method" />
        </Form.Item>
        <Form.Item
          name="params"
          label={t('deviceCommand.custom.params')}
          extra={t('deviceCommand.custom.paramsHint')}
          rules={[
            {
              validator: async (_, value: string | undefined) => {
                const parsed = parseParams(value ?? '');
                if ('problem' in parsed) {
                  throw new Error(t(`deviceCommand.custom.paramsRule.${parsed.problem}`));
                }
              },
            },
          ]}
        >
          <Input.TextArea
            rows={5}
            placeholder='{"on": true}'
            style={{ fontFamily: 'monospace' }}
            data-testid="command-custom-params"
          />
        </Form.Item>
        <Form.Item
          name="timeoutSec"
          label={t('deviceCommand.custom.timeout')}
          rules={[{ required: true, message: t('deviceCommand.custom.timeoutRequired') }]}
        >
          <InputNumber
            min={1}
            max={RPC_TIMEOUT_MAX_SEC}
            precision={0}
            addonAfter={t('deviceCommand.custom.seconds')}
            data-testid="command-custom-timeout"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
