import { EyeInvisibleOutlined, EyeOutlined } from '@ant-design/icons';
import type { TDeviceToken } from '@blrms/contracts';
import { Button, Space, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '../../shared/CopyButton';
import { useHasAction } from '../../shared/permission/use-has-action';
import { revealTokenKey } from './use-tokens';

/**
 * A token key, masked. With token:reveal the eye shows the full key (fetched when asked, never
 * kept in the list) and the copy button copies it.
 */
export function TokenKeyCell({ token }: { token: TDeviceToken }) {
  const { t } = useTranslation();
  const canReveal = useHasAction('token:reveal');
  const [key, setKey] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);

  const toggle = async () => {
    if (key !== null) {
      setKey(null);
      return;
    }
    setLoading(true);
    try {
      setKey(await revealTokenKey(token.id));
    } catch {
      // The HTTP client has reported the failure.
    } finally {
      setLoading(false);
    }
  };

  return (
    <Space size={0} data-testid={`token-key-${token.id}`}>
      <Typography.Text code style={{ wordBreak: 'break-all' }} data-testid="token-key-text">
        {key ?? token.tokenKeyMasked}
      </Typography.Text>
      {canReveal && (
        <>
          <Tooltip title={key === null ? t('deviceToken.reveal') : t('deviceToken.hide')}>
            <Button
              type="text"
              size="small"
              loading={loading}
              icon={key === null ? <EyeOutlined /> : <EyeInvisibleOutlined />}
              onClick={() => void toggle()}
              aria-label={key === null ? t('deviceToken.reveal') : t('deviceToken.hide')}
              data-testid="token-key-reveal"
            />
          </Tooltip>
          <CopyButton
            text={() => (key !== null ? Promise.resolve(key) : revealTokenKey(token.id))}
            label={t('deviceToken.copyKey')}
            testId="token-key-copy"
          />
        </>
      )}
    </Space>
  );
}
