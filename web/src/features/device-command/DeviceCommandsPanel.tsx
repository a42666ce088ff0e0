import {
  CodeOutlined,
  FileSearchOutlined,
  PoweroffOutlined,
  ThunderboltOutlined,
} from '@ant-design/icons';
import type { TCommandState, TDevice, TDeviceCommand, TRpcMethod } from '@blrms/contracts';
import { RPC_METHOD_PATTERN, RPC_TIMEOUT_DEFAULT_SEC, RPC_TIMEOUT_MAX_SEC } from '@blrms/contracts';
import {
  Alert,
  Button,
  Flex,
  Form,
  Input,
  InputNumber,
  Modal,
  Popconfirm,
  Table,
  Tag,
  Typography,
} from 'antd';
import type { HTMLAttributes } from 'react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { ApiError, reportApiError } from '../../api/errors';
import { formatDateTime, formatPageRange } from '../../shared/format';
import { useHasAction } from '../../shared/permission/use-has-action';
import { formatResult, parseParams, replyMs } from './command-page';
import type { CommandInput } from './use-device-commands';
import { useDeviceCommands, useLiveDeviceCommands, useSendCommand } from './use-device-commands';

const PAGE_SIZE = 10;
/** Characters of a result shown in its table cell; the whole of it is in the row's details. */
const SUMMARY_CHARS = 60;

const STATE_COLORS: Record<TCommandState, string> = {
  sent: 'processing',
  succeeded: 'success',
  failed: 'error',
  timeout: 'warning',
};

function CommandStateTag({ state }: { state: TCommandState }) {
  const { t } = useTranslation();
  return (
    <Tag color={STATE_COLORS[state]} data-testid="command-state">
      {t(`deviceCommand.state.${state}`)}
    </Tag>
  );
}

function Json({ value, testId }: { value: unknown; testId?: string }) {
  return (
    <pre
      style={{ margin: 0, whiteSpace: 'pre-wrap', wordBreak: 'break-word', fontSize: 12 }}
      data-testid={testId}
    >
      {formatResult(value)}
    </pre>
  );
}

/**
 * A failed command's reason: the device's own words, or the platform's wording when the device
 * gave none (the server stores `failed` then).
 */
function failureText(t: TFunction, error: string | null | undefined): string {
  return !error || error === 'failed' ? t('deviceCommand.failed') : error;
}

/** What came of a command, in one line: the answer, the device's error, or the timeout. */
function Outcome({ command }: { command: TDeviceCommand }) {
  const { t } = useTranslation();
  switch (command.state) {
    case 'sent':
      return <Typography.Text type="secondary">{t('deviceCommand.waiting')}</Typography.Text>;
    case 'timeout':
      return (
        <Typography.Text type="warning">
          {t('deviceCommand.timedOut', { seconds: command.timeoutSec })}
          {command.lateReply && ` · ${t('deviceCommand.answeredLate')}`}
        </Typography.Text>
      );
    case 'failed':
      return <Typography.Text type="danger">{failureText(t, command.error)}</Typography.Text>;
    case 'succeeded': {
      const text = formatResult(command.result).replace(/\s+/g, ' ');
      if (!text)
        return <Typography.Text type="secondary">{t('deviceCommand.noResult')}</Typography.Text>;
      return (
        <Typography.Text code>
          {text.length > SUMMARY_CHARS ? `${text.slice(0, SUMMARY_CHARS)}…` : text}
        </Typography.Text>
      );
    }
  }
}

/** A command in full: its parameters and its answer or error. */
function CommandDetails({ command }: { command: TDeviceCommand }) {
  const { t } = useTranslation();
  return (
    <Flex vertical gap={8} data-testid={`command-details-${command.id}`}>
      <div>
        <Typography.Text type="secondary">{t('deviceCommand.params')}</Typography.Text>
        <Json value={command.params ?? {}} />
      </div>
      {command.state === 'succeeded' && (
        <div>
          <Typography.Text type="secondary">{t('deviceCommand.result')}</Typography.Text>
          <Json value={command.result} testId="command-result" />
        </div>
      )}
      {command.state === 'failed' && (
        <Alert type="error" showIcon message={failureText(t, command.error)} />
      )}
      {command.state === 'timeout' && (
        <Alert
          type="warning"
          showIcon
          message={t('deviceCommand.timedOut', { seconds: command.timeoutSec })}
        />
      )}
      {command.lateReply && (
        <div data-testid="command-late-reply">
          <Typography.Text type="secondary">
            {t('deviceCommand.lateReply', { time: formatDateTime(command.lateReply.at) })}
          </Typography.Text>
          {command.lateReply.ok ? (
            <Json value={command.lateReply.result} />
          ) : (
            <Alert type="error" showIcon message={failureText(t, command.lateReply.error)} />
          )}
        </div>
      )}
    </Flex>
  );
}

type CustomValues = { method: string; params: string; timeoutSec: number };
type SendOutcome = { sent: true } | { sent: false; refusal: string | null };

/** A free-form command: any method the device knows, with JSON parameters (admins only). */
function CustomCommandModal({
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
          rules={[
            { required: true, message: t('deviceCommand.custom.methodRequired') },
            { pattern: RPC_METHOD_PATTERN, message: t('deviceCommand.custom.methodRule') },
          ]}
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

/**
 * Commands to one device (its detail page): reboot, ping, read its configuration, and for admins
 * any method with JSON parameters; the recent commands with their answers, live from the device's
 * channel. The command just sent opens to show its answer when it comes.
 */
export function DeviceCommandsPanel({ device }: { device: TDevice }) {
  const { t } = useTranslation();
  const canSend = useHasAction('device:command');
  const canSendCustom = useHasAction('device:command:custom');
  const [pageNo, setPageNo] = useState(1);
  const [expanded, setExpanded] = useState<string[]>([]);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [custom, setCustom] = useState(false);
  const commands = useDeviceCommands({
    deviceId: device.id,
    pageNo,
    pageSize: PAGE_SIZE,
    order: 'desc',
  });
  const send = useSendCommand();
  useLiveDeviceCommands(device.id);

  const run = async (input: Omit<CommandInput, 'deviceId'>): Promise<SendOutcome> => {
    setRefusal(null);
    try {
      const command = await send.mutateAsync({ ...input, deviceId: device.id });
      setExpanded((keys) => [command.id, ...keys]);
      setPageNo(1);
      return { sent: true };
    } catch (e) {
      // The server's reason (the device is offline, bad parameters) is shown where it was sent.
      if (e instanceof ApiError && (e.status === 409 || e.status === 400)) {
        return { sent: false, refusal: e.message };
      }
      if (e instanceof ApiError) reportApiError(e);
      return { sent: false, refusal: null };
    }
  };
  const builtIn = async (method: TRpcMethod) => {
    const outcome = await run({ method });
    if (!outcome.sent) setRefusal(outcome.refusal);
  };
  const sending = (method: string) => send.isPending && send.variables?.method === method;

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
        <Table<TDeviceCommand>
          rowKey="id"
          size="small"
          loading={commands.isPending}
          dataSource={commands.data?.records ?? []}
          scroll={{ x: 760 }}
          locale={{ emptyText: t('deviceCommand.empty') }}
          expandable={{
            expandedRowKeys: expanded,
            onExpandedRowsChange: (keys) => setExpanded(keys.map(String)),
            expandedRowRender: (command) => <CommandDetails command={command} />,
          }}
          pagination={{
            current: pageNo,
            pageSize: PAGE_SIZE,
            total: commands.data?.total ?? 0,
            showTotal: formatPageRange,
            hideOnSinglePage: true,
            onChange: setPageNo,
          }}
          onRow={(command) =>
            ({ 'data-testid': `command-row-${command.method}` }) as HTMLAttributes<HTMLElement>
          }
          columns={[
            {
              title: t('deviceCommand.time'),
              dataIndex: 'createTime',
              width: 170,
              render: (value: string) => formatDateTime(value),
            },
            {
              title: t('deviceCommand.method'),
              dataIndex: 'method',
              width: 130,
              render: (method: string) => <Typography.Text code>{method}</Typography.Text>,
            },
            {
              title: t('deviceCommand.stateLabel'),
              dataIndex: 'state',
              width: 110,
              render: (state: TCommandState) => <CommandStateTag state={state} />,
            },
            {
              title: t('deviceCommand.replyIn'),
              key: 'reply',
              width: 100,
              render: (_, command) => {
                const ms = replyMs(command);
                return ms === null ? '-' : t('deviceCommand.ms', { ms });
              },
            },
            {
              title: t('deviceCommand.outcome'),
              key: 'outcome',
              ellipsis: true,
              render: (_, command) => (
                <span data-testid="command-outcome">
                  <Outcome command={command} />
                </span>
              ),
            },
            {
              title: t('deviceCommand.by'),
              dataIndex: 'createBy',
              width: 120,
              render: (user: string | null) => user ?? '-',
            },
          ]}
          data-testid="command-table"
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
