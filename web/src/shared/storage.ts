/**
 * Everything the console keeps in localStorage (spec section 3), under one set of names so that
 * tests and support staff can find them.
 */
export const STORAGE_KEYS = {
  token: 'Access-Token',
  userInfo: 'Login_Userinfo',
  companies: 'Login_Companies',
  username: 'Login_Username',
  userButtonAuth: 'LOGIN_USER_BUTTON_AUTH',
  systemButtonAuth: 'SYS_BUTTON_AUTH',
  companyId: 'companyId',
  language: 'language',
} as const;

/** Per-tab state in sessionStorage: open tabs survive a reload but not a new window. */
export const SESSION_KEYS = {
  tabs: 'blrms.tabs',
  pageTitles: 'blrms.pageTitles',
  chooseDepart: 'blrms.chooseDepart',
} as const;

/**
 * Why the server ended the tab's session, for the login page: kept apart from SESSION_KEYS, which
 * a logout clears, as the logout is what follows it.
 */
export const SESSION_END_KEY = 'blrms.sessionEnded';

/** Spec section 9: token and user info live 7 days. */
export const SESSION_TTL_MS = 604_800_000;

type Expiring<T> = { value: T; expire: number };

function isExpiring(v: unknown): v is Expiring<unknown> {
  return (
    typeof v === 'object' &&
    v !== null &&
    'value' in v &&
    'expire' in v &&
    typeof v.expire === 'number'
  );
}

function readJson(key: string): unknown {
  const raw = localStorage.getItem(key);
  if (raw === null) return null;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return null;
  }
}

export function readText(key: string): string | null {
  return localStorage.getItem(key);
}

export function writeText(key: string, value: string): void {
  localStorage.setItem(key, value);
}

export function readValue<T>(key: string, guard: (v: unknown) => v is T): T | null {
  const v = readJson(key);
  return guard(v) ? v : null;
}

export function writeValue(key: string, value: unknown): void {
  localStorage.setItem(key, JSON.stringify(value));
}

/** Stored as `{ value, expire }`; an expired or malformed entry is removed on read. */
export function readExpiring<T>(key: string, guard: (v: unknown) => v is T): T | null {
  const v = readJson(key);
  if (isExpiring(v) && v.expire > Date.now() && guard(v.value)) return v.value;
  if (localStorage.getItem(key) !== null) localStorage.removeItem(key);
  return null;
}

export function writeExpiring(key: string, value: unknown, ttlMs: number): void {
  const entry: Expiring<unknown> = { value, expire: Date.now() + ttlMs };
  localStorage.setItem(key, JSON.stringify(entry));
}

export function remove(key: string): void {
  localStorage.removeItem(key);
}
