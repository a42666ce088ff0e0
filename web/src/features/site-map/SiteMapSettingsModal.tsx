import {
  SITE_MAP_ATTRIBUTION_MAX,
  SITE_MAP_TILE_URL_MAX,
  type TSiteMapSettings,
} from '@blrms/contracts';
import { Form, Input, Modal, type ButtonProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { showFieldErrors } from '../../shared/field-errors';
import { useSaveTiles } from './use-site-map';

type Values = { tileUrl?: string; attribution?: string };

/** The platform's tile server (platform administrators): none draws the shipped outline. */
export function SiteMapSettingsModal({
  open,
  tiles,
  onClose,
}: {
  open: boolean;
  tiles: TSiteMapSettings | undefined;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const save = useSaveTiles();

  return (
    <Modal
      title={t('siteMap.settingsTitle')}
      open={open}
      width={560}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      confirmLoading={save.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'site-map-settings-save' } as ButtonProps}
    >
      <Form<Values>
        form={form}
        layout="vertical"
        initialValues={{
          tileUrl: tiles?.tileUrl ?? undefined,
          attribution: tiles?.attribution ?? undefined,
        }}
        onFinish={(values) =>
          save.mutate(
            {
              tileUrl: values.tileUrl?.trim() || null,
              attribution: values.attribution?.trim() || null,
            },
            { onSuccess: onClose, onError: (error) => showFieldErrors(form, error) },
          )
        }
      >
        <Form.Item
          name="tileUrl"
          label={t('siteMap.tileUrl')}
          extra={t('siteMap.tileUrlHint')}
          rules={[{ max: SITE_MAP_TILE_URL_MAX }]}
        >
          <Input
            placeholder="https://tiles.example.com/{z}/{x}/{y}.png"
            allowClear
            data-testid="site-map-tile-url"
          />
        </Form.Item>
        <Form.Item
          name="attribution"
          label={t('siteMap.attribution')}
          extra={t('siteMap.attributionHint')}
          rules={[{ max: SITE_MAP_ATTRIBUTION_MAX }]}
        >
          <Input allowClear data-testid="site-map-attribution" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
