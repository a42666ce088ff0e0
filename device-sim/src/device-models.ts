import type { TDeviceSeries, TEventLevel, TTelemetryValues } from '@blrms/contracts';

/**
 * What each series measures and how its values move: bounded random walks, counters that only
 * grow, inputs that change now and then. Threshold crossings raise the events a real device
 * would send (R40 signal drops, BL10X Modbus outages, S27X digital input alarms).
 */

export interface DeviceEvent {
  level: TEventLevel;
  code: string;
  message: string;
}

export interface DeviceReport {
  values: TTelemetryValues;
  events: DeviceEvent[];
}

export interface DeviceModel {
  readonly series: TDeviceSeries;
  readonly model: string;
  readonly firmware: string;
  /** Signal strength now, whole dBm. */
  signal(): number;
  /** One reporting interval later: the new values and the events their changes raise. */
  step(): DeviceReport;
}

export type Random = () => number;

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));
const round = (value: number, decimals: number) => Number(value.toFixed(decimals));
const between = (random: Random, min: number, max: number) => min + random() * (max - min);
const walk = (random: Random, value: number, step: number, min: number, max: number) =>
  clamp(value + (random() * 2 - 1) * step, min, max);

/** Cellular signal: drifts a few dB per interval, and now and then fades deeply. */
class Signal {
  private dbm: number;

  constructor(private readonly random: Random) {
    this.dbm = Math.round(between(random, -95, -60));
  }

  get value(): number {
    return this.dbm;
  }

  step(): number {
    const fade = this.random() < 0.02 ? -between(this.random, 15, 25) : 0;
    const recovery = this.dbm < -100 ? 4 : 0;
    this.dbm = Math.round(walk(this.random, this.dbm + fade + recovery, 3, -113, -51));
    return this.dbm;
  }
}

/** R40 4G router. */
export const R40_WEAK_SIGNAL_DBM = -105;
const R40_RESTORED_SIGNAL_DBM = -100;

class R40Model implements DeviceModel {
  readonly series = 'R40';
  readonly model = 'R40-4G';
  readonly firmware = '2.1.4';
  private readonly radio: Signal;
  private sinr: number;
  private txBytes = 0;
  private rxBytes = 0;
  private weak = false;

  constructor(private readonly random: Random) {
    this.radio = new Signal(random);
    this.sinr = between(random, 5, 20);
  }

  signal() {
    return this.radio.value;
  }

  step(): DeviceReport {
    const signal = this.radio.step();
    const wanUp = signal > -110 ? 1 : 0;
    this.sinr = walk(this.random, this.sinr, 2, -10, 30);
    if (wanUp) {
      this.txBytes += Math.round(between(this.random, 2_000, 200_000));
      this.rxBytes += Math.round(between(this.random, 10_000, 2_000_000));
    }
    const events: DeviceEvent[] = [];
    if (!this.weak && signal <= R40_WEAK_SIGNAL_DBM) {
      this.weak = true;
      events.push({ level: 'warn', code: 'signal_weak', message: `Signal weak: ${signal} dBm` });
    } else if (this.weak && signal >= R40_RESTORED_SIGNAL_DBM) {
      this.weak = false;
      events.push({
        level: 'recovery',
        code: 'signal_restored',
        message: `Signal restored: ${signal} dBm`,
      });
    }
    return {
      values: {
        signal,
        rsrp: Math.round(clamp(signal - 20 + between(this.random, -5, 5), -140, -44)),
        sinr: round(this.sinr, 1),
        tx_bytes: this.txBytes,
        rx_bytes: this.rxBytes,
        wan_up: wanUp,
      },
      events,
    };
  }
}

/** BL10X Modbus gateway: polls its slaves ten times per interval. */
const BL10X_POLLS_PER_STEP = 10;

class BL10XModel implements DeviceModel {
  readonly series = 'BL10X';
  readonly model = 'BL101';
  readonly firmware = '1.3.0';
  private readonly radio: Signal;
  private pollsOk = 0;
  private pollsFailed = 0;
  private slaveDown = false;
  private temperature: number;
  private pressure: number;

  constructor(private readonly random: Random) {
    this.radio = new Signal(random);
    this.temperature = between(random, 20, 30);
    this.pressure = between(random, 0.9, 1.1);
  }

  signal() {
    return this.radio.value;
  }

  step(): DeviceReport {
    const signal = this.radio.step();
    const events: DeviceEvent[] = [];
    if (!this.slaveDown && this.random() < 0.01) {
      this.slaveDown = true;
      events.push({ level: 'warn', code: 'modbus_timeout', message: 'Slave 1 not answering' });
    } else if (this.slaveDown && this.random() < 0.3) {
      this.slaveDown = false;
      events.push({ level: 'recovery', code: 'modbus_restored', message: 'Slave 1 answering' });
    }
    for (let i = 0; i < BL10X_POLLS_PER_STEP; i++) {
      if (this.slaveDown || this.random() < 0.01) this.pollsFailed += 1;
      else this.pollsOk += 1;
    }
    this.temperature = walk(this.random, this.temperature, 0.3, 15, 40);
    this.pressure = walk(this.random, this.pressure, 0.02, 0.7, 1.3);
    return {
      values: {
        signal,
        modbus_ok: this.pollsOk,
        modbus_fail: this.pollsFailed,
        ...(this.slaveDown
          ? {}
          : { reg_40001: round(this.temperature, 1), reg_40002: round(this.pressure, 2) }),
      },
      events,
    };
  }
}

/** S27X RTU: four digital inputs, two analogue inputs, two digital outputs. */
const S27X_INPUTS = [1, 2, 3, 4] as const;

class S27XModel implements DeviceModel {
  readonly series = 'S27X';
  readonly model = 'S275';
  readonly firmware = '3.0.2';
  private readonly radio: Signal;
  private readonly inputs = [0, 0, 0, 0];
  private readonly outputs = [0, 0];
  private current: number;
  private voltage: number;

  constructor(private readonly random: Random) {
    this.radio = new Signal(random);
    this.current = between(random, 6, 18);
    this.voltage = between(random, 2, 8);
  }

  signal() {
    return this.radio.value;
  }

  step(): DeviceReport {
    const signal = this.radio.step();
    const events: DeviceEvent[] = [];
    for (const n of S27X_INPUTS) {
      if (this.random() >= 0.03) continue;
      const active = this.inputs[n - 1] === 1 ? 0 : 1;
      this.inputs[n - 1] = active;
      events.push(
        active
          ? { level: 'alarm', code: `di${n}_alarm`, message: `DI${n} active` }
          : { level: 'recovery', code: `di${n}_recovery`, message: `DI${n} back to normal` },
      );
    }
    for (let i = 0; i < this.outputs.length; i++) {
      if (this.random() < 0.01) this.outputs[i] = this.outputs[i] === 1 ? 0 : 1;
    }
    this.current = walk(this.random, this.current, 0.4, 4, 20);
    this.voltage = walk(this.random, this.voltage, 0.2, 0, 10);
    return {
      values: {
        di1: this.inputs[0] ?? 0,
        di2: this.inputs[1] ?? 0,
        di3: this.inputs[2] ?? 0,
        di4: this.inputs[3] ?? 0,
        ain1: round(this.current, 2),
        ain2: round(this.voltage, 2),
        do1: this.outputs[0] ?? 0,
        do2: this.outputs[1] ?? 0,
        signal,
      },
      events,
    };
  }
}

export function createDeviceModel(
  series: TDeviceSeries,
  random: Random = Math.random,
): DeviceModel {
  switch (series) {
    case 'R40':
      return new R40Model(random);
    case 'BL10X':
      return new BL10XModel(random);
    case 'S27X':
      return new S27XModel(random);
  }
}
