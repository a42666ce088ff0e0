import {
  deviceAddress,
  downFilter,
  parseTopic,
  upTopic,
  type TCampaign,
  type TCampaignCreateInput,
  type TCampaignDevice,
  type TDeviceSeries,
  type TFirmware,
  type TOtaDownPayload,
  type TOtaReportPayload,
} from '@blrms/contracts';
import type { MqttClient } from 'mqtt';
import { expect, vi } from 'vitest';
import type { TestContext } from './app.js';
import { importForm, type Client } from './devices.js';
import { connectDevice, type TokenCredential } from './mqtt-devices.js';

/** Uploads a firmware file through the API. */
export async function uploadFirmware(
  t: TestContext,
  as: Client,
  input: { series: TDeviceSeries; version: string; content: Buffer },
): Promise<TFirmware> {
  const form = importForm(
    { name: `${input.series}-${input.version}.bin`, content: input.content },
    { series: input.series, version: input.version },
  );
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/firmware/upload',
    headers: { ...as.headers, ...form.headers },
    payload: form.payload,
  });
  if (res.statusCode !== 200) throw new Error(`upload failed: ${res.statusCode} ${res.body}`);
  return res.json().result as TFirmware;
}

export function createCampaign(as: Client, input: TCampaignCreateInput): Promise<TCampaign> {
  return as.ok('POST', '/campaign/add', input);
}

/** Every device of a campaign, by SN. */
export async function campaignDevices(
  as: Client,
  id: string,
): Promise<Map<string, TCampaignDevice>> {
  const found = new Map<string, TCampaignDevice>();
  for (let pageNo = 1; ; pageNo += 1) {
    const page = await as.ok(
      'GET',
      `/campaign/devices?id=${id}&pageSize=100&pageNo=${pageNo}&order=asc`,
    );
    for (const d of page.records as TCampaignDevice[]) found.set(d.sn, d);
    if (pageNo >= page.pages) return found;
  }
}

/** Waits until the campaign's detail matches. */
export async function expectCampaign(
  as: Client,
  id: string,
  expected: Record<string, unknown>,
  timeout = 5000,
): Promise<TCampaign> {
  let last: TCampaign | undefined;
  await vi.waitFor(
    async () => {
      last = (await as.ok('GET', `/campaign/detail?id=${id}`)) as TCampaign;
      expect(last).toMatchObject(expected);
    },
    { timeout, interval: 25 },
  );
  return last!;
}

/**
 * A device whose upgrade steps the test drives by hand: it connects reporting a firmware version,
 * keeps every `down/ota` it gets, and reports what the test tells it to.
 */
export class OtaDevice {
  readonly jobs: { jobId: string; payload: TOtaDownPayload }[] = [];
  /** `{tokenCode}:{sn}`: its client id and the level of its topics. */
  readonly address: string;
  private connection: MqttClient | undefined;

  constructor(
    private readonly url: string,
    readonly sn: string,
    private readonly token: TokenCredential,
    readonly series: TDeviceSeries = 'R40',
  ) {
    this.address = deviceAddress(token.code, sn);
  }

  /** Subscribes to its downlinks, then says it is online running `fw`. */
  async connect(fw: string): Promise<this> {
    const connection = await connectDevice(this.url, this.sn, this.token, {
      will: {
        topic: upTopic(this.address, 'status'),
        payload: Buffer.from(JSON.stringify({ online: false })),
        qos: 1,
        retain: true,
      },
    });
    this.connection = connection;
    connection.on('message', (topic, payload) => {
      const parsed = parseTopic(topic);
      if (parsed?.direction === 'down' && parsed.kind === 'ota' && parsed.id) {
        this.jobs.push({ jobId: parsed.id, payload: JSON.parse(payload.toString()) });
      }
    });
    await connection.subscribeAsync(downFilter(this.address), { qos: 1 });
    await connection.publishAsync(
      upTopic(this.address, 'status'),
      JSON.stringify({ online: true, series: this.series, fw }),
      { qos: 1, retain: true },
    );
    return this;
  }

  async disconnect(): Promise<void> {
    await this.connection?.endAsync(true);
    this.connection = undefined;
  }

  get lastJob() {
    return this.jobs.at(-1);
  }

  async report(jobId: string, report: TOtaReportPayload): Promise<void> {
    if (!this.connection) throw new Error(`${this.sn} is not connected`);
    await this.connection.publishAsync(
      upTopic(this.address, 'ota', jobId),
      JSON.stringify(report),
      {
        qos: 1,
      },
    );
  }

  /** Reports every step of a good upgrade, reboots and comes back with the new version. */
  async upgrade(jobId: string, payload: TOtaDownPayload): Promise<void> {
    await this.report(jobId, { state: 'downloading', progress: 50 });
    await this.report(jobId, { state: 'downloaded', sha256: payload.sha256 });
    await this.report(jobId, { state: 'verified', sha256: payload.sha256 });
    await this.report(jobId, { state: 'updating' });
    await this.disconnect();
    await this.connect(payload.version);
  }
}
