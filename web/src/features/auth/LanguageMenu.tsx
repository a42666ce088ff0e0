import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, changeLanguage, currentLanguage, type Language } from '../../shared/language';
import { Icon } from './icons';

const NOTICE_MS = 3000;
const CLOSE_DELAY_MS = 150;

/**
 * The sign-in page's 中文 / English switch: a menu that opens on hover or click, as the console's
 * does, and a short notice in the language just chosen.
 */
export function LanguageMenu() {
  const { t, i18n } = useTranslation();
  const [open, setOpen] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const closeTimer = useRef<number | undefined>(undefined);
  const items = useRef<Partial<Record<Language, HTMLButtonElement | null>>>({});
  const language = currentLanguage();

  useEffect(() => {
    if (notice === null) return;
    const timer = window.setTimeout(() => setNotice(null), NOTICE_MS);
    return () => window.clearTimeout(timer);
  }, [notice]);

  useEffect(() => () => window.clearTimeout(closeTimer.current), []);

  const show = () => {
    window.clearTimeout(closeTimer.current);
    setOpen(true);
  };
  const hideSoon = () => {
    window.clearTimeout(closeTimer.current);
    closeTimer.current = window.setTimeout(() => setOpen(false), CLOSE_DELAY_MS);
  };

  const pick = async (next: Language) => {
    setOpen(false);
    if (next === language) return;
    await changeLanguage(next);
    // Read through i18n so the notice is in the language just chosen.
    setNotice(i18n.t('lang.switchSuccess'));
  };

  const onMenuKey = (event: KeyboardEvent) => {
    if (event.key === 'Escape') setOpen(false);
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    event.preventDefault();
    const focused = LANGUAGES.findIndex((l) => items.current[l] === document.activeElement);
    const step = event.key === 'ArrowDown' ? 1 : -1;
    const next = LANGUAGES[(focused + step + LANGUAGES.length) % LANGUAGES.length] ?? language;
    items.current[next]?.focus();
  };

  return (
    <div className="signin-lang" onMouseEnter={show} onMouseLeave={hideSoon} onKeyDown={onMenuKey}>
      <button
        type="button"
        className="signin-lang__button"
        aria-label={t('lang.label')}
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={show}
        data-testid="lang-switch"
      >
        <Icon name="global" />
        <span>{t(`lang.${language}`)}</span>
      </button>
      {open && (
        <div className="signin-lang__menu" role="menu">
          {LANGUAGES.map((lang) => (
            <button
              key={lang}
              ref={(item) => {
                items.current[lang] = item;
              }}
              type="button"
              role="menuitem"
              className={`signin-lang__item${lang === language ? ' signin-lang__item--selected' : ''}`}
              onClick={() => void pick(lang)}
            >
              <span data-testid={`lang-${lang}`}>{t(`lang.${lang}`)}</span>
            </button>
          ))}
        </div>
      )}
      {notice && (
        <div className="signin-notice" role="status" data-testid="signin-notice">
          <Icon name="success" className="signin-notice__icon" />
          <span>{notice}</span>
        </div>
      )}
    </div>
  );
}
