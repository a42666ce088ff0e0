import { Button } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { VERIFY_CODE_RESEND_SECONDS } from '@blrms/contracts/constants';

/**
 * Sends a code, then counts down before another one may be asked for. `send` validates its own
 * field and rejects when nothing was sent, which leaves the button ready again.
 */
export function SendCodeButton({ send, testId }: { send: () => Promise<void>; testId: string }) {
  const { t } = useTranslation();
  const [left, setLeft] = useState(0);
  const [sending, setSending] = useState(false);

  useEffect(() => {
    if (left <= 0) return;
    const timer = window.setTimeout(() => setLeft((s) => s - 1), 1000);
    return () => window.clearTimeout(timer);
  }, [left]);

  return (
    <Button
      size="large"
      disabled={left > 0}
      loading={sending}
      data-testid={testId}
      onClick={() => {
        setSending(true);
        send()
          .then(() => setLeft(VERIFY_CODE_RESEND_SECONDS))
          .catch(() => undefined)
          .finally(() => setSending(false));
      }}
    >
      {left > 0 ? t('account.resendIn', { seconds: left }) : t('account.sendCode')}
    </Button>
  );
}
