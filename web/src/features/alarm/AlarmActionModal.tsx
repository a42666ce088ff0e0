import type { TAlarmBulkResult } from '@blrms/contracts';
import { ALARM_BULK_MAX } from '@blrms/contracts';
import { useQueryClient } from '@tanstack/react-query';
import type { ButtonProps } from 'antd';
import { App, Form, Input, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ALARM_COUNTS_KEY } from '../../shared/alarm/use-alarm-counts';
import { ALARMS_KEY, alarmApi } from './alarm-api';

export type AlarmAction = { kind: 'ack' | 'clear'; ids: string[] };

/**
 * Acknowledge or clear alarms, one or a selection (up to ALARM_BULK_MAX), with a comment: optional
 * for an acknowledgement, required to clear by hand. Says how many changed and how many were
 * already past that state.
 */
export function AlarmActionModal({
  action,
  onClose,
}: {
  action: AlarmAction | null;
  onClose: (done: boolean) => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [form] = Form.useForm<{ comment?: string }>();
  const [saving, setSaving] = useState(false);
  const clear = action?.kind === 'clear';

  const run = async ({ comment = '' }: { comment?: string }) => {
    if (!action) return;
    setSaving(true);
    try {
      const ids = action.ids.slice(0, ALARM_BULK_MAX);
      const result: TAlarmBulkResult = clear
        ? await alarmApi.clear(ids, comment.trim())
        : await alarmApi.acknowledge(ids, comment.trim());
      if (result.skipped + result.notFound === 0) void message.success(t('common.saved'));
      else void message.info(t('alarm.bulkDone', { ...result }));
      await Promise.all([
        client.invalidateQueries({ queryKey: ALARMS_KEY }),
        client.invalidateQueries({ queryKey: ALARM_COUNTS_KEY }),
      ]);
      onClose(true);
    } catch {
      // Reported by the HTTP client.
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={action !== null}
      title={t(clear ? 'alarm.clearTitle' : 'alarm.ackTitle', { count: action?.ids.length ?? 0 })}
      okText={clear ? t('alarm.clear') : t('alarm.ack')}
      okButtonProps={{ danger: clear, 'data-testid': 'alarm-action-ok' } as ButtonProps}
      cancelText={t('common.cancel')}
      confirmLoading={saving}
      onOk={() => form.submit()}
      onCancel={() => onClose(false)}
      afterClose={() => form.resetFields()}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">
        {clear ? t('alarm.clearHint') : t('alarm.ackHint')}
      </Typography.Paragraph>
      <Form form={form} layout="vertical" onFinish={(values) => void run(values)}>
        <Form.Item
          name="comment"
          label={clear ? t('alarm.clearComment') : t('alarm.ackComment')}
          rules={
            clear ? [{ required: true, whitespace: true, message: t('alarm.commentRequired') }] : []
          }
        >
          <Input.TextArea rows={3} maxLength={500} showCount data-testid="alarm-comment" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
