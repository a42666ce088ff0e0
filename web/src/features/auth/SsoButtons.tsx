import { useQuery } from '@tanstack/react-query';
import { Button, Divider, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/errors';
import { ssoApi, ssoCallbackUrl } from '../../api/sso';

type Props = {
  /** Shows why a sign-in could not start (the provider is down, say). */
  onError: (message: string) => void;
};

/** The single sign-on buttons, shown only for the protocols the server has configured. */
export default function SsoButtons({ onError }: Props) {
  const { t } = useTranslation();
  const [starting, setStarting] = useState(false);
  const { data } = useQuery({ queryKey: ['sso-config'], queryFn: ssoApi.config, retry: false });
  if (!data || (!data.cas && !data.oidc)) return null;
  const { cas, oidc } = data;

  const startOidc = async () => {
    setStarting(true);
    try {
      window.location.assign((await ssoApi.oidcAuthorize()).url);
    } catch (e) {
      setStarting(false);
      onError(e instanceof ApiError && e.message ? e.message : t('sso.failed'));
    }
  };

  return (
    <div data-testid="sso-buttons">
      <Divider plain>{t('sso.or')}</Divider>
      <Space direction="vertical" style={{ width: '100%' }}>
        {cas && (
          <Button
            block
            href={`${cas.loginUrl}?service=${encodeURIComponent(ssoCallbackUrl('cas'))}`}
            data-testid="sso-cas"
          >
            {t('sso.loginWith', { name: cas.label })}
          </Button>
        )}
        {oidc && (
          <Button block loading={starting} onClick={() => void startOidc()} data-testid="sso-oidc">
            {t('sso.loginWith', { name: oidc.label })}
          </Button>
        )}
      </Space>
    </div>
  );
}
