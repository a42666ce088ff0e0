import { Alert, Modal, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '../../shared/CopyButton';

/**
 * The key of a token just created or regenerated, with the advice that goes with it and how a
 * device names itself with the token's code.
 */
export function NewKeyModal({
  token,
  regenerated,
  onClose,
}: {
  token: { code: string; key: string } | null;
  regenerated: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const tokenKey = token?.key ?? null;
  return (
    <Modal
      open={token !== null}
      title={regenerated ? t('deviceToken.newKeyTitleRegenerated') : t('deviceToken.newKeyTitle')}
      onCancel={onClose}
      onOk={onClose}
      cancelButtonProps={{ style: { display: 'none' } }}
      okText={t('common.close')}
      destroyOnHidden
      data-testid="new-key-modal"
    >
      <Alert
        type="info"
        showIcon
        message={regenerated ? t('deviceToken.newKeyHintRegenerated') : t('deviceToken.newKeyHint')}
        style={{ marginBottom: 12 }}
      />
      <Space align="start">
        <Typography.Text code style={{ wordBreak: 'break-all' }} data-testid="new-key">
          {tokenKey}
        </Typography.Text>
        {tokenKey && <CopyButton text={tokenKey} label={t('deviceToken.copyKey')} />}
      </Space>
      {token && (
        <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }}>
          {t('deviceToken.connectAs')}{' '}
          <Typography.Text
            code
            data-testid="new-key-client-id"
          >{`${token.code}:<SN>`}</Typography.Text>
        </Typography.Paragraph>
      )}
    </Modal>
  );
}
