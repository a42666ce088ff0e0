import i18n from 'i18next';
import type { TEnvelope } from '@blrms/contracts';
import { PERMISSION_VERSION_HEADER } from '@blrms/contracts/constants';
import {
  ApiError,
  STATUS_NETWORK,
  STATUS_TIMEOUT,
  reportApiError,
  reportUnlessPlaced,
} from './errors';
import { getCompanyId, getToken } from './session';

const BASE = '/api';
/** Spec section 9: every request gives up after 9 s. */
export const REQUEST_TIMEOUT_MS = 9000;
/** The one GET path that must not carry `_t` (spec section 7). */
const NO_CACHE_BUSTER = /^\/sys\/dict\/getDictItems\//;

export type Params = Record<string, string | number | boolean | null | undefined>;

export type RequestOptions = {
  params?: Params;
  body?: unknown;
  /** The caller shows the error itself (the login page); the catalogue stays quiet. */
  silent?: boolean;
};

type Envelope = TEnvelope<unknown>;

function isEnvelope(v: unknown): v is Envelope {
  return typeof v === 'object' && v !== null && 'success' in v && 'code' in v;
}

function buildUrl(method: string, path: string, params: Params | undefined): string {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params ?? {})) {
    if (v !== undefined && v !== null && v !== '') search.set(k, String(v));
  }
  if (method === 'GET' && !NO_CACHE_BUSTER.test(path)) {
    search.set('_t', String(Math.floor(Date.now() / 1000)));
  }
  const query = search.toString();
  return `${BASE}${path}${query ? `?${query}` : ''}`;
}

function buildHeaders(hasBody: boolean): Headers {
  const headers = new Headers({ 'Accept-Language': i18n.language || 'zh-CN' });
  const token = getToken();
  const companyId = getCompanyId();
  if (token) headers.set('X-Access-Token', token);
  if (companyId) headers.set('X-Company-Id', companyId);
  if (hasBody) headers.set('Content-Type', 'application/json');
  return headers;
}

/**
 * The server fingerprints the caller's grants in a header on every signed-in response. When it
 * changes under the same token (an administrator changed the user's roles or the menu), the
 * listeners run: the console refetches its menu and buttons without a new login.
 */
let seenPermissionVersion: { token: string; version: string } | null = null;
const permissionVersionListeners = new Set<() => void>();

export function onPermissionVersionChange(listener: () => void): () => void {
  permissionVersionListeners.add(listener);
  return () => permissionVersionListeners.delete(listener);
}

function notePermissionVersion(res: Response): void {
  const version = res.headers.get(PERMISSION_VERSION_HEADER);
  const token = getToken();
  if (!version || !token) return;
  const changed =
    seenPermissionVersion?.token === token && seenPermissionVersion.version !== version;
  seenPermissionVersion = { token, version };
  if (changed) permissionVersionListeners.forEach((listener) => listener());
}

async function send(method: string, path: string, options: RequestOptions): Promise<Response> {
  const controller = new AbortController();
  const timer = window.setTimeout(() => controller.abort(), REQUEST_TIMEOUT_MS);
  const hasBody = options.body !== undefined;
  try {
    const res = await fetch(buildUrl(method, path, hasBody ? undefined : options.params), {
      method,
      headers: buildHeaders(hasBody),
      body: hasBody ? JSON.stringify(options.body) : undefined,
      signal: controller.signal,
    });
    notePermissionVersion(res);
    return res;
  } catch (e) {
    const timedOut = e instanceof DOMException && e.name === 'AbortError';
    throw new ApiError(timedOut ? STATUS_TIMEOUT : STATUS_NETWORK, timedOut ? '' : String(e));
  } finally {
    window.clearTimeout(timer);
  }
}

async function readEnvelope(res: Response): Promise<Envelope | null> {
  try {
    const json: unknown = await res.json();
    return isEnvelope(json) ? json : null;
  } catch {
    return null;
  }
}

/** The envelope's `result` and `message` of a successful call. */
export type ApiResult<T> = { result: T; message: string };

export async function request<T>(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  options: RequestOptions = {},
): Promise<ApiResult<T>> {
  try {
    const res = await send(method, path, options);
    const envelope = await readEnvelope(res);
    if (!res.ok || !envelope || !envelope.success) {
      const status = res.ok ? (envelope?.code ?? res.status) : res.status;
      throw new ApiError(status, envelope?.message ?? res.statusText, envelope?.errors);
    }
    // The envelope's shape is the server's contract (packages/contracts); callers name the type.
    return { result: envelope.result as T, message: envelope.message };
  } catch (e) {
    const error = e instanceof ApiError ? e : new ApiError(STATUS_NETWORK, String(e));
    if (!options.silent) reportUnlessPlaced(error);
    throw error;
  }
}

export const http = {
  get: async <T>(path: string, params?: Params, options?: Omit<RequestOptions, 'params'>) =>
    (await request<T>('GET', path, { ...options, params })).result,
  delete: async <T>(path: string, params?: Params) =>
    (await request<T>('DELETE', path, { params })).result,
  post: async <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'body'>) =>
    (await request<T>('POST', path, { ...options, body: body ?? {} })).result,
  put: async <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'body'>) =>
    (await request<T>('PUT', path, { ...options, body: body ?? {} })).result,
};

/**
 * Sends a sheet as the multipart part `file`, the one upload form of the server's imports;
 * resolves to the envelope (its message says what was imported).
 */
export async function uploadFile<T>(path: string, file: File): Promise<ApiResult<T>> {
  const controller = new AbortController();
  const timer = window.setTimeout(() => controller.abort(), REQUEST_TIMEOUT_MS);
  // No Content-Type: the browser sets multipart/form-data with its boundary.
  const headers = buildHeaders(false);
  const body = new FormData();
  body.append('file', file, file.name);
  try {
    const res = await fetch(buildUrl('POST', path, undefined), {
      method: 'POST',
      headers,
      body,
      signal: controller.signal,
    });
    notePermissionVersion(res);
    const envelope = await readEnvelope(res);
    if (!res.ok || !envelope || !envelope.success) {
      throw new ApiError(res.status, envelope?.message ?? res.statusText, envelope?.errors);
    }
    return { result: envelope.result as T, message: envelope.message };
  } catch (e) {
    const error = e instanceof ApiError ? e : new ApiError(STATUS_NETWORK, String(e));
    reportUnlessPlaced(error);
    throw error;
  } finally {
    window.clearTimeout(timer);
  }
}

/** Downloads a file the server sends as an attachment, named as the server or caller says. */
export async function downloadFile(
  path: string,
  params: Params,
  fallbackName: string,
): Promise<void> {
  const res = await send('GET', path, { params });
  if (!res.ok) {
    const envelope = await readEnvelope(res);
    const error = new ApiError(res.status, envelope?.message ?? res.statusText);
    reportApiError(error);
    throw error;
  }
  const blob = await res.blob();
  const disposition = res.headers.get('Content-Disposition') ?? '';
  const match = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition);
  const name = match?.[1] ? decodeURIComponent(match[1]) : fallbackName;
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  URL.revokeObjectURL(url);
}

/**
 * Uploads go through XMLHttpRequest because fetch cannot report upload progress. The 9 s limit
 * of ordinary calls does not fit a 20 MB file on a slow line plus the server's check of up to
 * 50,000 rows, so an upload may take two minutes.
 */
export const UPLOAD_TIMEOUT_MS = 120_000;

function parseEnvelope(text: string): Envelope | null {
  try {
    const json: unknown = JSON.parse(text);
    return isEnvelope(json) ? json : null;
  } catch {
    return null;
  }
}

export type UploadOptions = {
  /** The caller shows the error itself (on the form field it concerns). */
  silent?: boolean;
  /** Replaces UPLOAD_TIMEOUT_MS, for files far larger than an import sheet; 0: no limit. */
  timeoutMs?: number;
};

/**
 * Posts a multipart form and resolves to the envelope's `result`. `onUploadProgress` gets the
 * fraction of the body sent (0 to 1); after 1 the server is still working on the request.
 */
export function upload<T>(
  path: string,
  form: FormData,
  onUploadProgress?: (fraction: number) => void,
  options: UploadOptions = {},
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const fail = (error: ApiError) => {
      if (!options.silent) reportUnlessPlaced(error);
      reject(error);
    };
    const xhr = new XMLHttpRequest();
    xhr.open('POST', buildUrl('POST', path, undefined));
    buildHeaders(false).forEach((value, name) => xhr.setRequestHeader(name, value));
    xhr.timeout = options.timeoutMs ?? UPLOAD_TIMEOUT_MS;
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onUploadProgress?.(event.loaded / event.total);
    };
    xhr.upload.onload = () => onUploadProgress?.(1);
    xhr.onload = () => {
      const envelope = parseEnvelope(xhr.responseText);
      const ok = xhr.status >= 200 && xhr.status < 300;
      if (!ok || !envelope || !envelope.success) {
        const status = ok ? (envelope?.code ?? xhr.status) : xhr.status;
        fail(new ApiError(status, envelope?.message ?? xhr.statusText, envelope?.errors));
        return;
      }
      // The envelope's shape is the server's contract (packages/contracts); callers name the type.
      resolve(envelope.result as T);
    };
    xhr.onerror = () => fail(new ApiError(STATUS_NETWORK, ''));
    xhr.ontimeout = () => fail(new ApiError(STATUS_TIMEOUT, ''));
    xhr.send(form);
  });
}
