import { CheckOutlined } from '@ant-design/icons';
import {
  Button,
  Divider,
  Drawer,
  List,
  Segmented,
  Select,
  Switch,
  Tooltip,
  Typography,
} from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LangSwitch } from '../../shared/LangSwitch';
import type { Settings } from './settings-store';
import { resetSettings, updateSettings, useSettings } from './settings-store';

/** antd's preset palette; the first is the spec's default #1890FF. */
const COLORS = [
  { key: 'daybreak', color: '#1890FF' },
  { key: 'dust', color: '#F5222D' },
  { key: 'volcano', color: '#FA541C' },
  { key: 'sunset', color: '#FAAD14' },
  { key: 'cyan', color: '#13C2C2' },
  { key: 'green', color: '#52C41A' },
  { key: 'geekblue', color: '#2F54EB' },
  { key: 'purple', color: '#722ED1' },
] as const;

function Row({ title, hint, action }: { title: string; hint?: string | false; action: ReactNode }) {
  const label = <span>{title}</span>;
  return (
    <List.Item actions={[action]}>
      {hint ? (
        <Tooltip title={hint} placement="left">
          {label}
        </Tooltip>
      ) : (
        label
      )}
    </List.Item>
  );
}

function Toggle({ name, disabled }: { name: keyof Settings; disabled?: boolean }) {
  const settings = useSettings();
  return (
    <Switch
      size="small"
      checked={settings[name] === true}
      disabled={disabled}
      onChange={(checked) => updateSettings({ [name]: checked })}
      data-testid={`setting-${name}`}
    />
  );
}

/** Spec section 3 settings; every change applies at once and is saved in localStorage. */
export function SettingsDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const settings = useSettings();
  const isSide = settings.layout === 'sidemenu';

  return (
    <Drawer
      title={t('settings.title')}
      open={open}
      onClose={onClose}
      width={300}
      footer={
        <Button block onClick={resetSettings} data-testid="setting-reset">
          {t('settings.reset')}
        </Button>
      }
    >
      <div data-testid="settings-drawer">
        <Typography.Title level={5}>{t('settings.navTheme')}</Typography.Title>
        <Segmented<Settings['navTheme']>
          value={settings.navTheme}
          onChange={(navTheme) => updateSettings({ navTheme })}
          options={[
            {
              value: 'dark',
              label: <span data-testid="setting-navTheme-dark">{t('settings.dark')}</span>,
            },
            {
              value: 'light',
              label: <span data-testid="setting-navTheme-light">{t('settings.light')}</span>,
            },
          ]}
        />

        <Typography.Title level={5} style={{ marginTop: 24 }}>
          {t('settings.primaryColor')}
        </Typography.Title>
        <div className="settings-colors">
          {COLORS.map(({ key, color }) => (
            <Tooltip key={key} title={t(`settings.colors.${key}`)}>
              <button
                type="button"
                className="settings-color"
                style={{ background: color }}
                aria-label={t(`settings.colors.${key}`)}
                aria-pressed={settings.primaryColor.toUpperCase() === color}
                onClick={() => updateSettings({ primaryColor: color })}
                data-testid={`setting-color-${color}`}
              >
                {settings.primaryColor.toUpperCase() === color && <CheckOutlined />}
              </button>
            </Tooltip>
          ))}
        </div>

        <Divider />
        <Typography.Title level={5}>{t('settings.layout')}</Typography.Title>
        <Segmented<Settings['layout']>
          value={settings.layout}
          onChange={(layout) => updateSettings({ layout })}
          options={[
            {
              value: 'sidemenu',
              label: <span data-testid="setting-layout-sidemenu">{t('settings.sidemenu')}</span>,
            },
            {
              value: 'topmenu',
              label: <span data-testid="setting-layout-topmenu">{t('settings.topmenu')}</span>,
            },
          ]}
        />
        <List split={false} size="small" style={{ marginTop: 12 }}>
          <Row
            title={t('settings.contentWidth')}
            hint={isSide && t('settings.contentWidthHint')}
            action={
              <Select
                size="small"
                style={{ width: 80 }}
                disabled={isSide}
                value={settings.contentWidth}
                onChange={(contentWidth) => updateSettings({ contentWidth })}
                options={[
                  { value: 'Fixed', label: t('settings.fixed') },
                  { value: 'Fluid', label: t('settings.fluid') },
                ]}
                data-testid="setting-contentWidth"
              />
            }
          />
          <Row title={t('settings.fixedHeader')} action={<Toggle name="fixedHeader" />} />
          <Row
            title={t('settings.autoHideHeader')}
            hint={!settings.fixedHeader && t('settings.autoHideHeaderHint')}
            action={<Toggle name="autoHideHeader" disabled={!settings.fixedHeader} />}
          />
          <Row
            title={t('settings.fixSiderbar')}
            hint={!isSide && t('settings.fixSiderbarHint')}
            action={<Toggle name="fixSiderbar" disabled={!isSide} />}
          />
        </List>

        <Divider />
        <Typography.Title level={5}>{t('settings.other')}</Typography.Title>
        <List split={false} size="small">
          <Row title={t('settings.colorWeak')} action={<Toggle name="colorWeak" />} />
          <Row title={t('settings.multipage')} action={<Toggle name="multipage" />} />
          <Row title={t('lang.label')} action={<LangSwitch />} />
        </List>
      </div>
    </Drawer>
  );
}
