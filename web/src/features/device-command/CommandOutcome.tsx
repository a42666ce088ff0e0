import type { TCommandState, TDeviceCommand } from '@blrms/contracts';
import { Alert, Flex, Tag, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../shared/format';
import { formatResult } from './command-page';

/** Characters of a result shown in its table cell; the whole of it is in the row's details. */
const SUMMARY_CHARS = 60;

const STATE_COLORS: Record<TCommandState, string> = {
  sent: 'processing',
  succeeded: 'success',
  failed: 'error',
  timeout: 'warning',
};

export function CommandStateTag({ state }: { state: TCommandState }) {
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
export function Outcome({ command }: { command: TDeviceCommand }) {
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
export function CommandDetails({ command }: { command: TDeviceCommand }) {
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
