import { permissionId } from '../db/seed/seed.js';
import { newId } from '../platform/db/ids.js';
import { authHeaders, type TestContext } from './app.js';

/** Menu keys of the device pages and buttons (see db/seed/menu.ts). */
export const DEVICE_PAGES = [
  'device',
  'device-token',
  'device-group',
  'device-list',
  'device-log',
  'device-firmware',
  'device-campaign',
  'device-campaign-detail',
];
export const DEVICE_BUTTONS = [
  'token:add',
  'token:edit',
  'token:delete',
  'token:reveal',
  'group:add',
  'group:edit',
  'group:delete',
  'device:add',
  'device:edit',
  'device:delete',
  'device:import',
  'device:export',
  'device:config',
  'device:command',
  'device:command:custom',
  'firmware:upload',
  'firmware:edit',
  'firmware:delete',
  'campaign:add',
  'campaign:control',
];

/** A role of the company granted these menu keys; `rules` are data-rule ids per key. */
export async function createRole(
  t: TestContext,
  companyId: string,
  keys: string[],
  rules: Record<string, string[]> = {},
): Promise<string> {
  const id = newId();
  await t.db
    .insertInto('sys_role')
    .values({
      id,
      company_id: companyId,
      role_code: `role-${id.slice(0, 8)}`,
      role_name: 'test role',
      role_name_en: null,
      description: null,
      create_time: t.clock.now,
    })
    .execute();
  for (const key of keys) {
    await t.db
      .insertInto('sys_role_permission')
      .values({
        role_id: id,
        permission_id: permissionId(key),
        data_rule_ids: rules[key]?.join(',') ?? null,
      })
      .execute();
  }
  return id;
}

export async function createDataRule(
  t: TestContext,
  key: string,
  rule: { column: string; operator: string; value: string; status?: string },
): Promise<string> {
  const id = newId();
  await t.db
    .insertInto('sys_permission_data_rule')
    .values({
      id,
      permission_id: permissionId(key),
      rule_name: `${rule.column} ${rule.operator}`,
      rule_column: rule.column,
      rule_conditions: rule.operator,
      rule_value: rule.value,
      status: rule.status ?? '1',
      create_time: t.clock.now,
    })
    .execute();
  return id;
}

/** A small API client for one signed-in user. */
export function client(t: TestContext, token: string, lang = 'en-US') {
  const headers = authHeaders(token, { 'accept-language': lang });
  const call = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url: `/api${url}`, headers, ...(payload ? { payload } : {}) });
  return {
    headers,
    get: (url: string) => call('GET', url),
    post: (url: string, payload: object) => call('POST', url, payload),
    put: (url: string, payload: object) => call('PUT', url, payload),
    del: (url: string) => call('DELETE', url),
    /** The result of a call that must succeed. */
    async ok(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) {
      const res = await call(method, url, payload);
      if (res.statusCode !== 200)
        throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
      return res.json().result;
    },
  };
}

export type Client = ReturnType<typeof client>;

/** Multipart body of an import request. */
export function importForm(
  file: { name: string; content: Buffer; type?: string },
  fields: Record<string, string>,
) {
  const boundary = `----blrms${newId()}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      ),
    );
  }
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type ?? 'application/octet-stream'}\r\n\r\n`,
    ),
    file.content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return {
    payload: Buffer.concat(parts),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}
