import i18n from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Feedback } from './feedback';

// With no resources t() returns the key, so the tests name the texts by key.
beforeAll(() => i18n.init({ lng: 'en-US', resources: {} }));

type Call = { url: string; init: RequestInit };

function envelope(result: unknown, code = 200, message = '') {
  return { success: code === 200, message, code, result, timestamp: 0 };
}

function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

/** A fresh client with browser globals stubbed: storage, timers, fetch and the antd feedback. */
async function setup(respond: (call: Call) => Response | Promise<Response>) {
  vi.resetModules();
  const store = new Map<string, string>();
  const storage = {
    getItem: (k: string) => store.get(k) ?? null,
    setItem: (k: string, v: string) => store.set(k, v),
    removeItem: (k: string) => store.delete(k),
  };
  vi.stubGlobal('localStorage', storage);
  vi.stubGlobal('sessionStorage', storage);
  vi.stubGlobal('window', {
    setTimeout,
    clearTimeout,
    location: { replace: vi.fn() },
  });
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string, init: RequestInit) => {
      calls.push({ url, init });
      return Promise.resolve(respond({ url, init }));
    }),
  );
  const notices: { message: unknown; description: unknown; duration?: number }[] = [];
  const modals: unknown[] = [];
  const feedback = {
    notification: { error: (n: (typeof notices)[number]) => notices.push(n) },
    modal: { error: (m: unknown) => modals.push(m) },
    message: {},
  } as unknown as Feedback;
  (await import('./feedback')).registerFeedback(feedback);
  const client = await import('./client');
  return { client, calls, notices, modals, store };
}

describe('http client', () => {
  beforeEach(() => {
    vi.useRealTimers();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('adds _t to GETs except dictionary items, and the session headers', async () => {
    const { client, calls, store } = await setup(() => jsonResponse(envelope({ ok: 1 })));
    store.set('Access-Token', JSON.stringify({ value: 'tok', expire: Date.now() + 60_000 }));
    store.set('companyId', 'c1');

    await expect(client.http.get('/sys/loginfo', { a: 1, empty: '' })).resolves.toEqual({ ok: 1 });
    await client.http.get('/sys/dict/getDictItems/sex');

    expect(calls[0]?.url).toMatch(/^\/api\/sys\/loginfo\?a=1&_t=\d+$/);
    expect(calls[1]?.url).toBe('/api/sys/dict/getDictItems/sex');
    const headers = new Headers(calls[0]?.init.headers);
    expect(headers.get('X-Access-Token')).toBe('tok');
    expect(headers.get('X-Company-Id')).toBe('c1');
    expect(headers.get('Accept-Language')).toBe('en-US');
  });

  it('sends POST bodies as JSON and returns the message with the result', async () => {
    const { client, calls } = await setup(() => jsonResponse(envelope(null, 200, 'done')));
    await expect(client.request('PUT', '/sys/x', { body: { a: 1 } })).resolves.toEqual({
      result: null,
      message: 'done',
    });
    expect(calls[0]?.init.body).toBe('{"a":1}');
    expect(calls[0]?.url).toBe('/api/sys/x');
  });

  it('maps statuses to the error catalogue', async () => {
    const statuses = [403, 404, 409];
    let i = 0;
    const { client, notices } = await setup(() => {
      const status = statuses[i++] ?? 500;
      return jsonResponse(envelope(null, status, 'server says'), status);
    });
    for (let n = 0; n < statuses.length; n++) {
      await expect(client.http.get('/sys/x')).rejects.toMatchObject({ status: statuses[n] });
    }
    expect(notices.map((n) => n.description)).toEqual([
      'http.forbidden',
      'http.notFound',
      'server says',
    ]);
    expect(notices.every((n) => n.message === 'http.systemNotice' && n.duration === 4)).toBe(true);
  });

  it('stays quiet for silent calls', async () => {
    const { client, notices } = await setup(() => jsonResponse(envelope(null, 400, 'bad'), 400));
    await expect(client.http.post('/sys/login', {}, { silent: true })).rejects.toMatchObject({
      status: 400,
      message: 'bad',
    });
    expect(notices).toEqual([]);
  });

  it('shows the login-expired modal for the 500 token message when a token exists', async () => {
    const { client, modals, store } = await setup(() =>
      jsonResponse(envelope(null, 500, 'Token失效，请重新登录'), 500),
    );
    store.set('Access-Token', JSON.stringify({ value: 'tok', expire: Date.now() + 60_000 }));
    await expect(client.http.get('/sys/x')).rejects.toMatchObject({ status: 500 });
    expect(modals).toHaveLength(1);
    expect(modals[0]).toMatchObject({
      title: 'http.sessionExpiredTitle',
      okText: 'http.loginAgain',
    });
  });

  it('turns a request over 9 s into a 504 timeout notice', async () => {
    vi.useFakeTimers();
    const { client, notices } = await setup(
      ({ init }) =>
        new Promise<Response>((_, reject) =>
          init.signal?.addEventListener('abort', () =>
            reject(new DOMException('aborted', 'AbortError')),
          ),
        ),
    );
    const pending = client.http.get('/sys/slow');
    const outcome = expect(pending).rejects.toMatchObject({ status: 504 });
    await vi.advanceTimersByTimeAsync(client.REQUEST_TIMEOUT_MS);
    await outcome;
    expect(notices[0]?.description).toBe('http.timeout');
  });

  it('uploads a form with the session headers, reports upload progress and unwraps the result', async () => {
    const { client, store } = await setup(() => jsonResponse(envelope(null)));
    store.set('Access-Token', JSON.stringify({ value: 'tok', expire: Date.now() + 60_000 }));
    const sent = FakeXhr.install(200, envelope({ imported: 3 }));
    const progress: number[] = [];
    const form = new FormData();
    form.append('tokenId', 't1');

    await expect(
      client.upload('/device/device/importExcel', form, (f) => progress.push(f)),
    ).resolves.toEqual({ imported: 3 });

    const xhr = sent[0];
    expect(xhr?.url).toBe('/api/device/device/importExcel');
    expect(xhr?.headers.get('x-access-token')).toBe('tok');
    expect(xhr?.body).toBe(form);
    expect(xhr?.timeout).toBe(client.UPLOAD_TIMEOUT_MS);
    expect(progress).toEqual([0.5, 1]);
  });

  it('reports a failed upload through the error catalogue', async () => {
    const { client, notices } = await setup(() => jsonResponse(envelope(null)));
    FakeXhr.install(413, envelope(null, 413, 'file too large'));
    await expect(client.upload('/x', new FormData())).rejects.toMatchObject({
      status: 413,
      message: 'file too large',
    });
    expect(notices.map((n) => n.description)).toEqual(['file too large']);
  });

  it('leaves a failed upload to a caller that shows it on its form, with the time it allows', async () => {
    const { client, notices } = await setup(() => jsonResponse(envelope(null)));
    const sent = FakeXhr.install(409, envelope(null, 409, 'version exists'));
    await expect(
      client.upload('/x', new FormData(), undefined, { silent: true, timeoutMs: 0 }),
    ).rejects.toMatchObject({ status: 409, message: 'version exists' });
    expect(sent[0]?.timeout).toBe(0);
    expect(notices).toEqual([]);
  });

  it('sends a sheet as the multipart part `file`, the form of every import', async () => {
    const { client, calls } = await setup(() => jsonResponse(envelope({ created: 1 }, 200, 'ok')));
    const file = new File(['username\nu1'], 'users.csv', { type: 'text/csv' });
    await expect(client.uploadFile('/sys/user/importExcel', file)).resolves.toEqual({
      result: { created: 1 },
      message: 'ok',
    });
    const init = calls[0]?.init;
    expect(init?.body).toBeInstanceOf(FormData);
    expect((init?.body as FormData).get('file')).toMatchObject({ name: 'users.csv' });
    // The browser writes the multipart type with its boundary.
    expect(new Headers(init?.headers).has('Content-Type')).toBe(false);
  });
});

/** Answers every request with `status` and `body` after reporting half the upload, then all. */
class FakeXhr {
  static install(status: number, body: unknown): FakeXhr[] {
    const sent: FakeXhr[] = [];
    vi.stubGlobal(
      'XMLHttpRequest',
      class extends FakeXhr {
        constructor() {
          super(status, JSON.stringify(body));
          sent.push(this);
        }
      },
    );
    return sent;
  }

  url = '';
  headers = new Headers();
  body: unknown = null;
  timeout = 0;
  responseText: string;
  statusText = '';
  upload: {
    onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null;
    onload: (() => void) | null;
  } = { onprogress: null, onload: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  ontimeout: (() => void) | null = null;

  constructor(
    readonly status: number,
    responseText: string,
  ) {
    this.responseText = responseText;
  }

  open(_method: string, url: string): void {
    this.url = url;
  }

  setRequestHeader(name: string, value: string): void {
    this.headers.set(name, value);
  }

  send(body: unknown): void {
    this.body = body;
    queueMicrotask(() => {
      this.upload.onprogress?.({ lengthComputable: true, loaded: 50, total: 100 });
      this.upload.onload?.();
      this.onload?.();
    });
  }
}
