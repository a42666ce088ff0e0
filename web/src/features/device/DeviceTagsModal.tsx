import { App, Form, Modal, Radio, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { tagOptions } from './base-options';
import { TAG_SEPARATORS, cleanTags, tagsValid } from './device-tags';
import { useChangeTags, useDeviceTags } from './use-devices';

type Action = 'add' | 'remove';

/** Adds tags to the selected devices, or takes tags from them. */
export function DeviceTagsModal({
  open,
  ids,
  onClose,
}: {
  open: boolean;
  ids: string[];
  onClose: (changed: boolean) => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const known = useDeviceTags();
  const change = useChangeTags();
  const [action, setAction] = useState<Action>('add');
  const [tags, setTags] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);

  const close = (changed: boolean) => {
    setAction('add');
    setTags([]);
    setError(null);
    onClose(changed);
  };

  const submit = async () => {
    const chosen = cleanTags(tags);
    if (chosen.length === 0) {
      setError(t('form.required', { field: t('device.bulkTags.tags') }));
      return;
    }
    if (!tagsValid(chosen)) {
      setError(t('device.tagsRule'));
      return;
    }
    try {
      const { count } = await change.mutateAsync({ action, ids, tags: chosen });
      void message.success(
        t(action === 'add' ? 'device.bulkTags.added' : 'device.bulkTags.removed', { count }),
      );
      close(true);
    } catch {
      // Reported by the HTTP client; the dialog stays open.
    }
  };

  return (
    <Modal
      open={open}
      title={t('device.bulkTags.title', { count: ids.length })}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      confirmLoading={change.isPending}
      onOk={() => void submit()}
      onCancel={() => close(false)}
      destroyOnHidden
      data-testid="tags-modal"
    >
      <Form layout="vertical">
        <Form.Item label={t('device.bulkTags.mode')}>
          <Radio.Group
            value={action}
            onChange={(e) => setAction(e.target.value as Action)}
            optionType="button"
            options={[
              { value: 'add', label: t('device.bulkTags.add') },
              { value: 'remove', label: t('device.bulkTags.remove') },
            ]}
            data-testid="tags-action"
          />
        </Form.Item>
        <Form.Item
          label={t('device.bulkTags.tags')}
          required
          validateStatus={error ? 'error' : undefined}
          help={error ?? t('device.tagsRule')}
        >
          <Select
            mode="tags"
            value={tags}
            onChange={(value: string[]) => {
              setTags(value);
              setError(null);
            }}
            tokenSeparators={TAG_SEPARATORS}
            placeholder={t('device.tagsPlaceholder')}
            loading={known.isPending}
            options={tagOptions(known.data, (tag, count) => t('device.tagCount', { tag, count }))}
            data-testid="tags-select"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
