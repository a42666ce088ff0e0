import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { HOME_PATH } from '../../shared/paths';

export default function NotFoundPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Result
      status="404"
      title="404"
      subTitle={t('notFound.subTitle')}
      data-testid="not-found"
      extra={
        <Button type="primary" onClick={() => navigate(HOME_PATH)} data-testid="not-found-home">
          {t('notFound.backHome')}
        </Button>
      }
    />
  );
}
