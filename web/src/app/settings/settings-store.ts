import { useSyncExternalStore } from 'react';
import { readValue, writeValue } from '../../shared/storage';

/** Layout settings of spec section 3; defaults from section 9. */
export type Settings = {
  navTheme: 'dark' | 'light';
  primaryColor: string;
  layout: 'sidemenu' | 'topmenu';
  contentWidth: 'Fixed' | 'Fluid';
  fixedHeader: boolean;
  autoHideHeader: boolean;
  fixSiderbar: boolean;
  colorWeak: boolean;
  multipage: boolean;
  sidebarCollapsed: boolean;
};

export const DEFAULT_SETTINGS: Settings = {
  navTheme: 'dark',
  primaryColor: '#1890FF',
  layout: 'sidemenu',
  contentWidth: 'Fixed',
  fixedHeader: false,
  autoHideHeader: false,
  fixSiderbar: false,
  colorWeak: false,
  multipage: true,
  sidebarCollapsed: false,
};

const ALLOWED: { [K in keyof Settings]: (v: unknown) => v is Settings[K] } = {
  navTheme: (v): v is Settings['navTheme'] => v === 'dark' || v === 'light',
  primaryColor: (v): v is string => typeof v === 'string' && /^#[0-9a-fA-F]{6}$/.test(v),
  layout: (v): v is Settings['layout'] => v === 'sidemenu' || v === 'topmenu',
  contentWidth: (v): v is Settings['contentWidth'] => v === 'Fixed' || v === 'Fluid',
  fixedHeader: (v): v is boolean => typeof v === 'boolean',
  autoHideHeader: (v): v is boolean => typeof v === 'boolean',
  fixSiderbar: (v): v is boolean => typeof v === 'boolean',
  colorWeak: (v): v is boolean => typeof v === 'boolean',
  multipage: (v): v is boolean => typeof v === 'boolean',
  sidebarCollapsed: (v): v is boolean => typeof v === 'boolean',
};

/** Each setting has its own localStorage entry, e.g. `settings.navTheme`. */
export const settingKey = (name: keyof Settings) => `settings.${name}`;

function loadOne<K extends keyof Settings>(name: K): Settings[K] {
  return readValue<Settings[K]>(settingKey(name), ALLOWED[name]) ?? DEFAULT_SETTINGS[name];
}

function load(): Settings {
  return {
    navTheme: loadOne('navTheme'),
    primaryColor: loadOne('primaryColor'),
    layout: loadOne('layout'),
    contentWidth: loadOne('contentWidth'),
    fixedHeader: loadOne('fixedHeader'),
    autoHideHeader: loadOne('autoHideHeader'),
    fixSiderbar: loadOne('fixSiderbar'),
    colorWeak: loadOne('colorWeak'),
    multipage: loadOne('multipage'),
    sidebarCollapsed: loadOne('sidebarCollapsed'),
  };
}

let snapshot = load();
const listeners = new Set<() => void>();

export function updateSettings(patch: Partial<Settings>): void {
  snapshot = { ...snapshot, ...patch };
  for (const [name, value] of Object.entries(patch)) writeValue(`settings.${name}`, value);
  listeners.forEach((l) => l());
}

export function resetSettings(): void {
  updateSettings({ ...DEFAULT_SETTINGS, sidebarCollapsed: snapshot.sidebarCollapsed });
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useSettings(): Settings {
  return useSyncExternalStore(subscribe, () => snapshot);
}
