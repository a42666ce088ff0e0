import type { TAuthEntry, TCompanyRef, TLoginResult, TUserInfo } from '@blrms/contracts';
import {
  SESSION_END_KEY,
  SESSION_KEYS,
  SESSION_TTL_MS,
  STORAGE_KEYS,
  readExpiring,
  readText,
  readValue,
  remove,
  writeExpiring,
  writeText,
  writeValue,
} from '../shared/storage';

const isString = (v: unknown): v is string => typeof v === 'string' && v.length > 0;
const isUserInfo = (v: unknown): v is TUserInfo =>
  typeof v === 'object' && v !== null && 'username' in v && typeof v.username === 'string';
const isAuthList = (v: unknown): v is TAuthEntry[] => Array.isArray(v);
const isCompanyList = (v: unknown): v is TCompanyRef[] => Array.isArray(v);

const listeners = new Set<() => void>();
// useSyncExternalStore needs a stable snapshot, so the parsed user info is cached until it changes.
let userInfoSnapshot: TUserInfo | null | undefined;

function emit(): void {
  userInfoSnapshot = undefined;
  listeners.forEach((l) => l());
}

export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function getToken(): string | null {
  return readExpiring(STORAGE_KEYS.token, isString);
}

export function getUserInfo(): TUserInfo | null {
  if (userInfoSnapshot === undefined) {
    userInfoSnapshot = readExpiring(STORAGE_KEYS.userInfo, isUserInfo);
  }
  return userInfoSnapshot;
}

export function getCompanyId(): string | null {
  return readText(STORAGE_KEYS.companyId);
}

export function getRememberedUsername(): string | null {
  return readText(STORAGE_KEYS.username);
}

export function rememberUsername(username: string | null): void {
  if (username) writeText(STORAGE_KEYS.username, username);
  else remove(STORAGE_KEYS.username);
}

/** The companies the user may act in, as the login returned them. */
export function getCompanies(): TCompanyRef[] {
  return readExpiring(STORAGE_KEYS.companies, isCompanyList) ?? [];
}

/** Stores a successful login; the first company becomes the one requests act in. */
export function startSession(login: TLoginResult): void {
  writeExpiring(STORAGE_KEYS.token, login.token, SESSION_TTL_MS);
  writeExpiring(STORAGE_KEYS.userInfo, login.userInfo, SESSION_TTL_MS);
  writeExpiring(STORAGE_KEYS.companies, login.companies, SESSION_TTL_MS);
  writeText(STORAGE_KEYS.companyId, login.companies[0]?.id ?? login.userInfo.companyId);
  emit();
}

export function replaceUserInfo(userInfo: TUserInfo): void {
  writeExpiring(STORAGE_KEYS.userInfo, userInfo, SESSION_TTL_MS);
  emit();
}

export function storeButtonAuth(auth: TAuthEntry[], allAuth: TAuthEntry[]): void {
  writeValue(STORAGE_KEYS.userButtonAuth, auth);
  writeValue(STORAGE_KEYS.systemButtonAuth, allAuth);
}

export function getStoredButtonAuth(): { auth: TAuthEntry[]; allAuth: TAuthEntry[] } {
  return {
    auth: readValue(STORAGE_KEYS.userButtonAuth, isAuthList) ?? [],
    allAuth: readValue(STORAGE_KEYS.systemButtonAuth, isAuthList) ?? [],
  };
}

/** Forgets the session locally; the remembered username and settings stay. */
export function clearSession(): void {
  remove(STORAGE_KEYS.token);
  remove(STORAGE_KEYS.userInfo);
  remove(STORAGE_KEYS.companies);
  remove(STORAGE_KEYS.userButtonAuth);
  remove(STORAGE_KEYS.systemButtonAuth);
  remove(STORAGE_KEYS.companyId);
  Object.values(SESSION_KEYS).forEach((k) => sessionStorage.removeItem(k));
  emit();
}

const LOGOUT_TIMEOUT_MS = 9000;

// The user ended the session (logout, a password change): the 401s of the calls still under way
// are expected, and neither a notice nor a reason on the login page.
let endingOnPurpose = false;

export function endSessionOnPurpose(): void {
  endingOnPurpose = true;
}

export function sessionEndsOnPurpose(): boolean {
  return endingOnPurpose;
}

/**
 * Spec section 4: logout tells the server, then forgets the session; a failed server call still
 * completes the logout. It bypasses the client so that an expired token raises no second notice.
 * Resolves to whether the server confirmed.
 */
export async function logout(): Promise<boolean> {
  endSessionOnPurpose();
  const token = getToken();
  try {
    if (!token) return true;
    const res = await fetch('/api/sys/logout', {
      method: 'POST',
      headers: { 'X-Access-Token': token, 'Content-Type': 'application/json' },
      body: '{}',
      signal: AbortSignal.timeout(LOGOUT_TIMEOUT_MS),
    });
    return res.ok;
  } catch {
    return false;
  } finally {
    clearSession();
  }
}

/** Why the server ended the session (a frozen account, say), for the login page to show. */
export function rememberSessionEnd(reason: string): void {
  sessionStorage.setItem(SESSION_END_KEY, reason);
}

/** The reason the last session ended, if the login page has not shown it yet. */
export function sessionEndReason(): string | null {
  return sessionStorage.getItem(SESSION_END_KEY);
}

export function forgetSessionEnd(): void {
  sessionStorage.removeItem(SESSION_END_KEY);
}
