import type { StorageState } from './browser.js';
import type { RunningServer } from './server.js';

/** The session a signed-in console holds, to set up data through the API in the same company. */
export interface ApiSession {
  token: string;
  companyId: string | null;
}

/** Reads the token and company the console keeps in localStorage from a saved browser state. */
export function apiSession(storage: StorageState, server: RunningServer): ApiSession {
  const items = storage.origins.find((o) => o.origin === server.url)?.localStorage ?? [];
  const read = (name: string) => items.find((i) => i.name === name)?.value ?? null;
  const raw = read('Access-Token');
  if (!raw) throw new Error('the saved state holds no session');
  const entry = JSON.parse(raw) as { value: string };
  return { token: entry.value, companyId: read('companyId') };
}

type Query = Record<string, string | number | undefined>;

/** Calls the API as that session and returns the envelope's result; a failure throws. */
export async function api<T>(
  server: RunningServer,
  session: ApiSession,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  payload?: Query | object,
): Promise<T> {
  const url = new URL(`/api${path}`, server.url);
  const headers: Record<string, string> = { 'X-Access-Token': session.token };
  if (session.companyId) headers['X-Company-Id'] = session.companyId;
  let body: string | undefined;
  if (method === 'GET' || method === 'DELETE') {
    for (const [k, v] of Object.entries(payload ?? {})) {
      if (v !== undefined) url.searchParams.set(k, String(v));
    }
  } else {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(payload ?? {});
  }
  const res = await fetch(url, { method, headers, body });
  const envelope = (await res.json()) as { success: boolean; message: string; result: T };
  if (!res.ok || !envelope.success) {
    throw new Error(`${method} ${path}: ${res.status} ${envelope.message}`);
  }
  return envelope.result;
}
