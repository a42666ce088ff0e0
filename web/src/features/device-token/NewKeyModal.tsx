import { Alert, Modal, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '../../shared/CopyButton';

/** The key of a token just created or regenerated, with the advice that goes with it. */
export function NewKeyModal({
  tokenKey,
  regenerated,
  onClose,
}: {
  tokenKey: string | null;
  regenerated: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      open={tokenKey !== null}
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
    </Modal>
  );
}
