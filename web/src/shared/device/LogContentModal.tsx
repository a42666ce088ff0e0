import type { TDeviceLog } from '@blrms/contracts';
import { Descriptions, Modal, Tag, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../format';
import { DeviceLogStateTag } from './DeviceLogStateTag';
import { formatLogContent } from './log-content';

/** A device log's content in full: JSON indented, anything else as plain text. Read-only. */
export function LogContentModal({ log, onClose }: { log: TDeviceLog | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const content = log ? formatLogContent(log.content) : null;
  return (
    <Modal
      open={log !== null}
      title={log?.subject}
      onCancel={onClose}
      footer={null}
      width={720}
      destroyOnHidden
      data-testid="log-content-modal"
    >
      {log && content && (
        <>
          <Descriptions size="small" column={{ xs: 1, sm: 2 }} style={{ marginBottom: 12 }}>
            <Descriptions.Item label={t('deviceLog.logTime')}>
              {formatDateTime(log.logTime)}
            </Descriptions.Item>
            <Descriptions.Item label={t('deviceLog.state')}>
              <DeviceLogStateTag state={log.state} />
            </Descriptions.Item>
            <Descriptions.Item label={t('deviceLog.sn')}>{log.sn ?? '-'}</Descriptions.Item>
            <Descriptions.Item label={t('deviceLog.requestUrl')}>
              <Typography.Text code>{log.requestUrl}</Typography.Text>
            </Descriptions.Item>
          </Descriptions>
          <Tag data-testid="log-content-format">
            {content.json ? t('deviceLog.formatJson') : t('deviceLog.formatText')}
          </Tag>
          <pre
            style={{
              marginTop: 8,
              maxHeight: 480,
              overflow: 'auto',
              padding: 12,
              borderRadius: token.borderRadius,
              background: token.colorFillQuaternary,
              fontFamily: token.fontFamilyCode,
              fontSize: 12,
              whiteSpace: 'pre-wrap',
              wordBreak: 'break-all',
            }}
            data-testid="log-content"
          >
            {content.text}
          </pre>
        </>
      )}
    </Modal>
  );
}
