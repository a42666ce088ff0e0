import { GlobalOutlined } from '@ant-design/icons';
import { App, Button, Dropdown } from 'antd';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, changeLanguage, isLanguage } from './language';

/** 中文 / English switch, shown on the login page and in the console header. */
export function LangSwitch({ className }: { className?: string }) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();

  const items = LANGUAGES.map((lang) => ({
    key: lang,
    label: <span data-testid={`lang-${lang}`}>{t(`lang.${lang}`)}</span>,
  }));

  return (
    <Dropdown
      menu={{
        items,
        selectable: true,
        selectedKeys: [i18n.language],
        onClick: async ({ key }) => {
          if (!isLanguage(key) || key === i18n.language) return;
          await changeLanguage(key);
          // Read through i18n so the notice is in the language just chosen.
          void message.success(i18n.t('lang.switchSuccess'));
        },
      }}
      placement="bottomRight"
    >
      <Button
        type="text"
        className={className}
        icon={<GlobalOutlined />}
        data-testid="lang-switch"
        aria-label={t('lang.label')}
      >
        {t(`lang.${isLanguage(i18n.language) ? i18n.language : 'zh-CN'}`)}
      </Button>
    </Dropdown>
  );
}
