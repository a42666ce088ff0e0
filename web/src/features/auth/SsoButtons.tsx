import type { TSsoConfig } from '@blrms/contracts';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/errors';
import { ssoApi, ssoCallbackUrl } from '../../api/sso';
import { Button } from './controls';

type Props = {
  /** Shows why a sign-in could not start (the provider is down, say). */
  onError: (message: string) => void;
};

/** The single sign-on buttons, shown only for the protocols the server has configured. */
export function SsoButtons({ onError }: Props) {
  const { t } = useTranslation();
  const [starting, setStarting] = useState(false);
  const [config, setConfig] = useState<TSsoConfig | null>(null);

  useEffect(() => {
    let current = true;
    // Without an answer the page simply offers no single sign-on.
    ssoApi.config().then(
      (answer) => current && setConfig(answer),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, []);

  if (!config || (!config.cas && !config.oidc)) return null;
  const { cas, oidc } = config;

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
    <div className="signin-sso" data-testid="sso-buttons">
      <div className="signin-divider" role="separator">
        <span>{t('sso.or')}</span>
      </div>
      {cas && (
        <a
          className="signin-button signin-button--default"
          href={`${cas.loginUrl}?service=${encodeURIComponent(ssoCallbackUrl('cas'))}`}
          data-testid="sso-cas"
        >
          <span>{t('sso.loginWith', { name: cas.label })}</span>
        </a>
      )}
      {oidc && (
        <Button loading={starting} onClick={() => void startOidc()} testId="sso-oidc">
          {t('sso.loginWith', { name: oidc.label })}
        </Button>
      )}
    </div>
  );
}
