import { Button, InputNumber, Modal, Space, Spin, Typography, type ButtonProps } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { LatLng } from './lat-lng';

// Leaflet and the outline come with the map, so a form that offers the picker does not load them
// until the picker opens.
const PickMap = lazy(() => import('./PickMap'));

type PickerProps = {
  value: LatLng | null;
  onChange: (value: LatLng | null) => void;
  open: boolean;
  onClose: () => void;
};

/**
 * A dialog to pick a place (WGS 84 degrees) by clicking a map or typing the numbers. `onChange`
 * gets the picked coordinates on OK, null on "clear"; the dialog then asks to close. Each opening
 * starts again from `value`.
 */
export function CoordinatePicker(props: PickerProps) {
  return props.open ? <PickerDialog {...props} /> : null;
}

function PickerDialog({ value, onChange, onClose }: PickerProps) {
  const { t } = useTranslation();
  const [picked, setPicked] = useState<LatLng | null>(value);

  const setPart = (part: keyof LatLng, n: number | null) =>
    setPicked((current) => (n === null ? null : { ...(current ?? { lat: 0, lng: 0 }), [part]: n }));

  return (
    <Modal
      title={t('map.pickTitle')}
      open
      width={760}
      onCancel={onClose}
      onOk={() => {
        onChange(picked);
        onClose();
      }}
      okButtonProps={{ disabled: !picked, 'data-testid': 'coordinate-picker-ok' } as ButtonProps}
      footer={(_, { OkBtn, CancelBtn }) => (
        <Space wrap style={{ justifyContent: 'flex-end' }}>
          {value && (
            <Button
              onClick={() => {
                onChange(null);
                onClose();
              }}
              data-testid="coordinate-picker-clear"
            >
              {t('map.clear')}
            </Button>
          )}
          <CancelBtn />
          <OkBtn />
        </Space>
      )}
      data-testid="coordinate-picker"
    >
      <Typography.Paragraph type="secondary">{t('map.pickHint')}</Typography.Paragraph>
      <Space wrap style={{ marginBottom: 12 }}>
        <InputNumber
          addonBefore={t('map.latitude')}
          min={-90}
          max={90}
          precision={6}
          step={0.1}
          value={picked?.lat ?? null}
          onChange={(n) => setPart('lat', n)}
          data-testid="coordinate-picker-lat"
        />
        <InputNumber
          addonBefore={t('map.longitude')}
          min={-180}
          max={180}
          precision={6}
          step={0.1}
          value={picked?.lng ?? null}
          onChange={(n) => setPart('lng', n)}
          data-testid="coordinate-picker-lng"
        />
      </Space>
      <Suspense fallback={<Spin style={{ display: 'block', margin: '160px auto' }} />}>
        <PickMap value={picked} onPick={setPicked} />
      </Suspense>
    </Modal>
  );
}
