import { CopyOutlined } from '@ant-design/icons';
import { App, Button, Tooltip } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { copyText } from './clipboard';

type Props = {
  /** The text, or how to get it (a secret the server hands out on request). */
  text: string | (() => Promise<string>);
  label?: string;
  testId?: string;
};

/** Copies to the clipboard and says whether it worked (spec: 'Copy failed'). */
export function CopyButton({ text, label, testId }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);

  const copy = async () => {
    setBusy(true);
    try {
      const value = typeof text === 'string' ? text : await text();
      if (await copyText(value)) void message.success(t('common.copied'));
      else void message.error(t('common.copyFailed'));
    } catch {
      // Getting the text failed; the HTTP client has said why.
    } finally {
      setBusy(false);
    }
  };

  return (
    <Tooltip title={label ?? t('common.copy')}>
      <Button
        type="text"
        size="small"
        icon={<CopyOutlined />}
        loading={busy}
        onClick={() => void copy()}
        aria-label={label ?? t('common.copy')}
        data-testid={testId}
      />
    </Tooltip>
  );
}
