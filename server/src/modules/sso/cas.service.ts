import { XMLParser } from 'fast-xml-parser';

/** What a CAS 3.0 `serviceValidate` answer says. */
export type CasValidation =
  { ok: true; user: string; attributes: Record<string, string> } | { ok: false; code: string };

const parser = new XMLParser({
  // `cas:serviceResponse` and `serviceResponse` alike: servers differ in the prefix they declare.
  removeNSPrefix: true,
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  // Usernames such as 00123 stay text.
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
});

type Node = Record<string, unknown>;

const isNode = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The text of an element: a plain value, the text of an element with attributes, or the first of a repeated one. */
function textOf(value: unknown): string | null {
  if (Array.isArray(value)) return value.length > 0 ? textOf(value[0]) : null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (isNode(value) && typeof value['#text'] === 'string') return value['#text'];
  return null;
}

/** Parses the body of `/p3/serviceValidate`; anything that is not a CAS answer throws. */
export function parseCasResponse(xml: string): CasValidation {
  const doc: unknown = parser.parse(xml);
  const response = isNode(doc) ? doc.serviceResponse : undefined;
  if (!isNode(response)) throw new Error('not a CAS serviceResponse');
  const success = response.authenticationSuccess;
  if (isNode(success)) {
    const user = textOf(success.user);
    if (!user) throw new Error('CAS authenticationSuccess without a user');
    const attributes: Record<string, string> = {};
    if (isNode(success.attributes)) {
      for (const [name, value] of Object.entries(success.attributes)) {
        const text = textOf(value);
        if (text !== null) attributes[name] = text;
      }
    }
    return { ok: true, user, attributes };
  }
  const failure = response.authenticationFailure;
  if (failure !== undefined) {
    const code = isNode(failure) && typeof failure['@code'] === 'string' ? failure['@code'] : '';
    return { ok: false, code: code || 'UNKNOWN' };
  }
  throw new Error('CAS serviceResponse without a success or failure');
}
