import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import i18n from 'i18next';
import { STORAGE_KEYS, readText, writeText } from './storage';

export const LANGUAGES = ['zh-CN', 'en-US'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'zh-CN';

export function isLanguage(v: unknown): v is Language {
  return LANGUAGES.some((l) => l === v);
}

export function storedLanguage(): Language {
  const v = readText(STORAGE_KEYS.language);
  return isLanguage(v) ? v : DEFAULT_LANGUAGE;
}

export function currentLanguage(): Language {
  return isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE;
}

/** The parts of the page outside React that follow the language: dayjs and `<html lang>`. */
export function applyLanguage(language: Language): void {
  dayjs.locale(language === 'zh-CN' ? 'zh-cn' : 'en');
  document.documentElement.lang = language;
}

export async function changeLanguage(language: Language): Promise<void> {
  writeText(STORAGE_KEYS.language, language);
  applyLanguage(language);
  await i18n.changeLanguage(language);
}
