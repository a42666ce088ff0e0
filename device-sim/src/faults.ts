/**
 * Faults a simulated device can be given, so that tests and benchmarks see how the platform copes
 * with devices that misbehave the way real ones do: a download cut off half way, a corrupted
 * image, a device that will not take an upgrade or a configuration, a command never answered.
 */

export interface DeviceFaults {
  /** The firmware download's connection is cut once at about half way; the device resumes it. */
  dropMidDownload?: boolean;
  /** One byte of the firmware arrives flipped: the sha256 check fails. */
  corruptDownload?: boolean;
  /** Every upgrade is refused before downloading ("upgrade refused by device"). */
  refuseUpgrade?: boolean;
  /** Every configuration is refused (true), or any that changes one of these dotted paths. */
  rejectConfig?: boolean | readonly string[];
  /** These RPC methods (true: all) are never answered, so that the platform's timeout shows. */
  ignoreRpc?: boolean | readonly string[];
}

export const FAULT_KINDS = [
  'dropMidDownload',
  'corruptDownload',
  'refuseUpgrade',
  'rejectConfig',
] as const;
export type TFaultKind = (typeof FAULT_KINDS)[number];

/**
 * How many devices of a fleet get each fault: a whole number is a count of devices, a number
 * between 0 and 1 a share of the fleet (rounded up). Each faulty device has exactly one of them.
 */
export type FaultAmounts = Partial<Record<TFaultKind, number>>;

/** The number of devices out of `total` that an amount stands for; throws on nonsense. */
export function faultyCount(kind: string, amount: number, total: number): number {
  if (!Number.isFinite(amount) || amount < 0)
    throw new RangeError(`${kind}: ${amount} is neither a count nor a share between 0 and 1`);
  if (amount > 0 && amount < 1) return Math.ceil(amount * total - 1e-9);
  if (!Number.isInteger(amount))
    throw new RangeError(`${kind}: ${amount} is neither a whole number nor a share below 1`);
  return amount;
}

/**
 * Picks distinct devices for the faults, spread evenly over the fleet (the same devices on every
 * run of the same fleet): with 200 devices, one drop and one corrupt download go to the devices
 * at index 50 and 150. Returns the faults by device index.
 */
export function assignFaults(total: number, amounts: FaultAmounts): Map<number, DeviceFaults> {
  const wanted: TFaultKind[] = [];
  for (const kind of FAULT_KINDS) {
    const count = faultyCount(kind, amounts[kind] ?? 0, total);
    for (let i = 0; i < count; i++) wanted.push(kind);
  }
  if (wanted.length > total)
    throw new RangeError(
      `${wanted.length} faulty devices asked for, but the fleet has only ${total}`,
    );
  const assigned = new Map<number, DeviceFaults>();
  wanted.forEach((kind, j) => {
    const index = Math.floor(((j + 0.5) * total) / wanted.length);
    assigned.set(index, { [kind]: true });
  });
  return assigned;
}

/** One-line description of a device's faults, e.g. `drop mid-download, refuse config wifi.ssid`. */
export function describeFaults(faults: DeviceFaults): string {
  const parts: string[] = [];
  if (faults.dropMidDownload) parts.push('drop mid-download');
  if (faults.corruptDownload) parts.push('corrupt download');
  if (faults.refuseUpgrade) parts.push('refuse upgrade');
  if (faults.rejectConfig === true) parts.push('refuse config');
  else if (typeof faults.rejectConfig === 'object')
    parts.push(`refuse config ${faults.rejectConfig.join(' ')}`);
  if (faults.ignoreRpc === true) parts.push('ignore commands');
  else if (typeof faults.ignoreRpc === 'object') parts.push(`ignore ${faults.ignoreRpc.join(' ')}`);
  return parts.join(', ');
}
