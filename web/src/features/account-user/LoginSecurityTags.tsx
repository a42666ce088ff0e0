import { LockOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import type { TLoginSecurity } from '@blrms/contracts';
import { Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { TWO_FACTOR_NS } from '../../app/i18n/two-factor';

import { formatDateTime } from '../../shared/format';

/**
 * A lock tag whose tooltip says which addresses failed how often and until when; a 2FA tag. Icons
 * with their words in the tooltip, so the status column keeps its width and the user list still
 * shows the department and company columns at 1440 px.
 */
export function LoginSecurityTags({ security }: { security: TLoginSecurity | undefined }) {
  const { t } = useTranslation(TWO_FACTOR_NS);
  if (!security) return null;
  return (
    <>
      {security.locked && (
        <Tooltip
          title={
            <>
              <div>{t('locked')}</div>
              {security.sources.map((s) => (
                <div key={s.ip}>
                  {s.lockedUntil
                    ? t('lockReason', {
                        ip: s.ip,
                        count: s.failCount,
                        until: formatDateTime(s.lockedUntil),
                      })
                    : t('failReason', { ip: s.ip, count: s.failCount })}
                </div>
              ))}
            </>
          }
        >
          <Tag
            color="warning"
            icon={<LockOutlined />}
            aria-label={t('locked')}
            data-testid="user-login-locked"
          />
        </Tooltip>
      )}
      {security.twoFactorEnabled && (
        <Tooltip title={t('enabledTag')}>
          <Tag
            color="blue"
            icon={<SafetyCertificateOutlined />}
            aria-label={t('enabledTag')}
            data-testid="user-two-factor"
          />
        </Tooltip>
      )}
    </>
  );
}
