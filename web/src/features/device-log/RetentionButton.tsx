import { ClockCircleOutlined } from '@ant-design/icons';
import { ModalForm, ProFormDigit } from '@ant-design/pro-components';
import type { TDataRetention } from '@blrms/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Skeleton } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { deviceDataApi } from '../../api/device-data';

const KEY = ['deviceDataRetention'] as const;
const MIN_DAYS = 1;
const MAX_DAYS = 3650;

/**
 * How long device telemetry and events are kept, platform-wide (issue 4): a button and its form
 * for platform administrators (`device:retention`; the page shows it only to them).
 */
export function RetentionButton() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [open, setOpen] = useState(false);
  const retention = useQuery({ queryKey: KEY, queryFn: deviceDataApi.retention, enabled: open });
  const save = useMutation({
    mutationFn: deviceDataApi.setRetention,
    onSuccess: (saved) => client.setQueryData(KEY, saved),
  });

  const submit = async (values: TDataRetention) => {
    try {
      await save.mutateAsync({ days: values.days });
      void message.success(t('common.saved'));
      return true;
    } catch {
      // The HTTP client has shown the server's message; the form keeps the value.
      return false;
    }
  };

  return (
    <ModalForm<TDataRetention>
      title={t('deviceLog.retention.title')}
      open={open}
      onOpenChange={setOpen}
      width={440}
      trigger={
        <Button icon={<ClockCircleOutlined />} data-testid="data-retention">
          {t('deviceLog.retention.button')}
        </Button>
      }
      modalProps={{ destroyOnHidden: true, maskClosable: false }}
      submitter={{ submitButtonProps: { disabled: !retention.data } }}
      onFinish={submit}
      data-testid="data-retention-form"
    >
      {retention.data ? (
        <ProFormDigit
          name="days"
          label={t('deviceLog.retention.days')}
          width="sm"
          initialValue={retention.data.days}
          extra={t('deviceLog.retention.hint', { min: MIN_DAYS, max: MAX_DAYS })}
          min={MIN_DAYS}
          max={MAX_DAYS}
          fieldProps={{ precision: 0, addonAfter: t('deviceLog.retention.unit') }}
          rules={[
            {
              required: true,
              message: t('deviceLog.retention.rule', { min: MIN_DAYS, max: MAX_DAYS }),
            },
          ]}
        />
      ) : (
        <Skeleton active paragraph={{ rows: 1 }} />
      )}
    </ModalForm>
  );
}
