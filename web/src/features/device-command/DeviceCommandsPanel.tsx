import {
  CodeOutlined,
  FileSearchOutlined,
  PoweroffOutlined,
  ThunderboltOutlined,
} from '@ant-design/icons';
import type { TDevice } from '@blrms/contracts';
import { Alert, Button, Flex, Popconfirm, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useHasAction } from '../../shared/permission/use-has-action';
import { CommandTable } from './CommandTable';
import { CustomCommandModal } from './CustomCommandModal';
import { COMMAND_PAGE_SIZE, useCommandPanel } from './use-command-panel';

/**
 * Commands to one device (its detail page): reboot, ping, read its configuration, and for admins
 * any method with JSON parameters; the recent commands with their answers, live from the device's
 * channel. The command just sent opens to show its answer when it comes.
 */
export function DeviceCommandsPanel({ device }: { device: TDevice }) {
  const { t } = useTranslation();
  const canSend = useHasAction('device:command');
  const canSendCustom = useHasAction('device:command:custom');
  const panel = useCommandPanel(device.id);
  const { pageNo, setPageNo, expanded, setExpanded, refusal, setRefusal, send, commands } = panel;
  const { run, builtIn, sending } = panel;
  const [custom, setCustom] = useState(false);

  return (
    <Flex vertical gap={16} data-testid="device-commands">
      {(canSend || canSendCustom) && (
        <Flex wrap gap={8}>
          {canSend && (
            <>
              <Button
                icon={<ThunderboltOutlined />}
                loading={sending('ping')}
                onClick={() => void builtIn('ping')}
                data-testid="command-ping"
              >
                {t('deviceCommand.ping')}
              </Button>
              <Button
                icon={<FileSearchOutlined />}
                loading={sending('get_config')}
                onClick={() => void builtIn('get_config')}
                data-testid="command-get-config"
              >
                {t('deviceCommand.getConfig')}
              </Button>
              <Popconfirm
                title={t('deviceCommand.rebootTitle', { name: device.name })}
                description={t('deviceCommand.rebootContent')}
                okText={t('deviceCommand.reboot')}
                okButtonProps={{ danger: true }}
                cancelText={t('common.cancel')}
                onConfirm={() => void builtIn('reboot')}
              >
                <Button
                  danger
                  icon={<PoweroffOutlined />}
                  loading={sending('reboot')}
                  data-testid="command-reboot"
                >
                  {t('deviceCommand.reboot')}
                </Button>
              </Popconfirm>
            </>
          )}
          {canSendCustom && (
            <Button
              icon={<CodeOutlined />}
              onClick={() => setCustom(true)}
              data-testid="command-custom"
            >
              {t('deviceCommand.custom.button')}
            </Button>
          )}
        </Flex>
      )}
      {device.status !== 'online' && (
        <Typography.Text type="secondary" data-testid="command-offline-hint">
          {t('deviceCommand.offlineHint')}
        </Typography.Text>
      )}
      {refusal && (
        <Alert
          type="error"
          showIcon
          closable
          message={t('deviceCommand.refused')}
          description={refusal}
          onClose={() => setRefusal(null)}
          data-testid="command-refused"
        />
      )}
      <section>
        <Typography.Text strong style={{ display: 'block', marginBottom: 8 }}>
          {t('deviceCommand.recent')}
        </Typography.Text>
        <CommandTable
          page={commands.data}
          loading={commands.isPending}
          pageNo={pageNo}
          pageSize={COMMAND_PAGE_SIZE}
          onPageNo={setPageNo}
          expanded={expanded}
          onExpanded={setExpanded}
        />
      </section>
      <CustomCommandModal
        open={custom}
        sending={send.isPending}
        onSend={run}
        onClose={() => setCustom(false)}
      />
    </Flex>
  );
}
