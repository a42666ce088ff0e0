import { DEVICE_TAGS_MAX, ZDeviceTag } from '@blrms/contracts';

/** What a tags input may hold: tags typed or chosen, trimmed, without repeats or blanks. */
export function cleanTags(values: readonly string[]): string[] {
  return [...new Set(values.map((v) => v.trim()).filter(Boolean))];
}

/** Whether the tags pass the server's rules (each 1–32 characters, no commas, at most 20). */
export function tagsValid(values: readonly string[]): boolean {
  const tags = cleanTags(values);
  return tags.length <= DEVICE_TAGS_MAX && tags.every((t) => ZDeviceTag.safeParse(t).success);
}

/** Commas (either width) end a tag as Enter does: a tag can never hold one. */
export const TAG_SEPARATORS = [',', '，'];
