import { LockOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import type { TLoginSecurity } from '@blrms/contracts';
import { Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { TWO_FACTOR_NS } from '../../app/i18n/two-factor';

import { formatDateTime } from '../../shared/format';

/** A lock tag whose tooltip says which addresses failed how often and until when; a 2FA tag. */
export function LoginSecurityTags({ security }: { security: TLoginSecurity | undefined }) {
  const { t } = useTranslation(TWO_FACTOR_NS);
  if (!security) return null;
  return (
    <>
      {security.locked && (
        <Tooltip
          title={security.sources.map((s) => (
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
        >
          <Tag color="warning" icon={<LockOutlined />} data-testid="user-login-locked">
            {t('locked')}
          </Tag>
        </Tooltip>
      )}
      {security.twoFactorEnabled && (
        <Tag color="blue" icon={<SafetyCertificateOutlined />} data-testid="user-two-factor">
          {t('enabledTag')}
        </Tag>
      )}
    </>
  );
}
