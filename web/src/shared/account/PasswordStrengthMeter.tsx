import { Progress, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { passwordStrength, type PasswordStrength } from './password-strength';

const LOOK: Record<PasswordStrength, { percent: number; color: string }> = {
  low: { percent: 33, color: '#ff4d4f' },
  medium: { percent: 66, color: '#faad14' },
  high: { percent: 100, color: '#52c41a' },
};

export function PasswordStrengthMeter({
  password,
  username,
}: {
  password: string | undefined;
  /** The account's username, when the form knows it (the server refuses it as a password). */
  username?: string;
}) {
  const { t } = useTranslation();
  if (!password) return null;
  const strength = passwordStrength(password, username);
  const look = LOOK[strength];
  return (
    <div className="account-strength" data-testid="password-strength" data-strength={strength}>
      <Progress
        percent={look.percent}
        strokeColor={look.color}
        showInfo={false}
        size="small"
        className="account-strength__bar"
      />
      <Typography.Text style={{ color: look.color }}>
        {t('account.strength')}
        {t(`account.strength_${strength}`)}
      </Typography.Text>
    </div>
  );
}
