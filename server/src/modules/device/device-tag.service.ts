import {
  DEVICE_TAG_COUNTS_MAX,
  DEVICE_TAGS_MAX,
  ZDeviceTag,
  type TDeviceTagCount,
} from '@blrms/contracts';
import type { Scope } from '../../platform/auth/scope.js';
import { AppError } from '../../platform/http/app-error.js';
import type { DeviceTagRepository } from './device-tag.repository.js';

/** A device as the tag changes need it: found in the caller's company and data rules. */
export interface TaggedDevice {
  id: string;
  sn: string;
}

/** What a change did to one device's tags. */
export interface TagChange {
  id: string;
  tags: string[];
}

/** Tags without repeats, in the order given. */
export const uniqueTags = (tags: readonly string[]) => [...new Set(tags)];

/**
 * The tags of a sheet cell: comma-separated, each trimmed; `invalid` lists the ones that break
 * the rules of a tag (empty parts between commas are skipped).
 */
export function tagsOfCell(cell: string): { tags: string[]; invalid: string[] } {
  const parts = cell
    .split(/[,，]/)
    .map((t) => t.trim())
    .filter(Boolean);
  return {
    tags: uniqueTags(parts.filter((t) => ZDeviceTag.safeParse(t).success)),
    invalid: parts.filter((t) => !ZDeviceTag.safeParse(t).success),
  };
}

/** Free tags on devices: what a device may carry, and the company's tag counts. */
export class DeviceTagService {
  constructor(private readonly repository: DeviceTagRepository) {}

  tagsOf(companyId: string, deviceIds: string[]): Promise<Map<string, string[]>> {
    return deviceIds.length === 0
      ? Promise.resolve(new Map())
      : this.repository.tagsOf(companyId, deviceIds);
  }

  /** The company's tags with their device counts, the most used first. */
  counts(scope: Scope): Promise<TDeviceTagCount[]> {
    return this.repository.counts(scope.companyId, DEVICE_TAG_COUNTS_MAX);
  }

  /** 400 naming `tags` when a device would carry more than DEVICE_TAGS_MAX tags. */
  requireWithinLimit(sn: string, count: number): void {
    if (count > DEVICE_TAGS_MAX) {
      throw new AppError('deviceTagsTooMany', 400, { max: DEVICE_TAGS_MAX, sn, count });
    }
  }

  /** Sets a device's tags (a new device's, or the edit form's whole list). */
  async replace(scope: Scope, device: TaggedDevice, tags: string[]): Promise<void> {
    const unique = uniqueTags(tags);
    this.requireWithinLimit(device.sn, unique.length);
    await this.repository.replace(scope.companyId, device.id, unique);
  }

  /**
   * Adds tags to devices: all or nothing, refused when one device would pass the limit. Returns
   * the tags each device did not have yet (devices that had them all are left out).
   */
  async add(scope: Scope, devices: TaggedDevice[], tags: string[]): Promise<TagChange[]> {
    const wanted = uniqueTags(tags);
    const current = await this.tagsOf(
      scope.companyId,
      devices.map((d) => d.id),
    );
    const changes: TagChange[] = [];
    for (const device of devices) {
      const had = current.get(device.id) ?? [];
      const added = wanted.filter((t) => !had.includes(t));
      this.requireWithinLimit(device.sn, had.length + added.length);
      if (added.length > 0) changes.push({ id: device.id, tags: added });
    }
    await this.repository.add(
      scope.companyId,
      changes.flatMap((c) => c.tags.map((tag) => ({ device_id: c.id, tag }))),
    );
    return changes;
  }

  /** Takes tags from devices; returns the tags each device had of them. */
  async remove(scope: Scope, devices: TaggedDevice[], tags: string[]): Promise<TagChange[]> {
    const unwanted = uniqueTags(tags);
    const current = await this.tagsOf(
      scope.companyId,
      devices.map((d) => d.id),
    );
    const changes = devices
      .map((d) => ({
        id: d.id,
        tags: (current.get(d.id) ?? []).filter((t) => unwanted.includes(t)),
      }))
      .filter((c) => c.tags.length > 0);
    if (changes.length > 0) {
      await this.repository.remove(
        scope.companyId,
        changes.map((c) => c.id),
        unwanted,
      );
    }
    return changes;
  }

  /** The tags of imported devices (checked by the import against the rules and the limit). */
  async addImported(companyId: string, rows: { device_id: string; tag: string }[]) {
    await this.repository.add(companyId, rows);
  }
}
