import { App, Form, Modal, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useGroupOptions, useMoveToGroup } from './use-devices';

const NO_GROUP = 'none';

/** Moves the selected devices into one group, or out of any group. */
export function MoveToGroupModal({
  open,
  ids,
  onClose,
}: {
  open: boolean;
  ids: string[];
  onClose: (moved: boolean) => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const groups = useGroupOptions();
  const move = useMoveToGroup();
  const [target, setTarget] = useState<string | undefined>();
  const [error, setError] = useState(false);

  const close = (moved: boolean) => {
    setTarget(undefined);
    setError(false);
    onClose(moved);
  };

  const submit = async () => {
    if (!target) {
      setError(true);
      return;
    }
    try {
      const { count } = await move.mutateAsync({
        ids,
        groupId: target === NO_GROUP ? null : target,
      });
      void message.success(t('device.moved', { count }));
      close(true);
    } catch {
      // Reported by the HTTP client; the dialog stays open.
    }
  };

  return (
    <Modal
      open={open}
      title={t('device.moveTitle', { count: ids.length })}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      confirmLoading={move.isPending}
      onOk={() => void submit()}
      onCancel={() => close(false)}
      destroyOnHidden
      data-testid="move-modal"
    >
      <Form layout="vertical">
        <Form.Item
          label={t('device.targetGroup')}
          required
          validateStatus={error ? 'error' : undefined}
          help={error ? t('form.required', { field: t('device.targetGroup') }) : undefined}
        >
          <Select
            value={target}
            onChange={(value) => {
              setTarget(value);
              setError(false);
            }}
            placeholder={t('device.targetGroupPlaceholder')}
            loading={groups.isPending}
            showSearch
            optionFilterProp="label"
            options={[
              { value: NO_GROUP, label: t('device.noGroup') },
              ...(groups.data ?? []).map((g) => ({ value: g.id, label: g.name })),
            ]}
            data-testid="move-group-select"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
