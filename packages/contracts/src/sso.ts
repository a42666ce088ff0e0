import { z } from 'zod';

/** What the login page needs to show the single sign-on buttons: names and addresses, no secrets. */
export const ZSsoConfig = z.object({
  cas: z
    .object({
      label: z.string(),
      loginUrl: z.string().describe('The CAS login page; the console appends ?service='),
    })
    .nullable()
    .describe('null: CAS is not configured'),
  oidc: z
    .object({ label: z.string() })
    .nullable()
    .describe('null: OpenID Connect is not configured'),
});
export type TSsoConfig = z.infer<typeof ZSsoConfig>;

const url = z.url({ protocol: /^https?$/, error: 'must be an http(s):// URL' }).max(1024);

export const ZCasValidateQuery = z.object({
  ticket: z.string().min(1, 'is required').max(512),
  service: url.describe("The console's CAS callback URL the ticket was issued for"),
});
export type TCasValidateQuery = z.infer<typeof ZCasValidateQuery>;

export const ZOidcAuthorizeQuery = z.object({
  redirectUri: url.describe("The console's OIDC callback URL"),
});
export type TOidcAuthorizeQuery = z.infer<typeof ZOidcAuthorizeQuery>;

export const ZOidcAuthorizeResult = z.object({
  url: z.string().describe("The identity provider's authorization URL to send the browser to"),
});
export type TOidcAuthorizeResult = z.infer<typeof ZOidcAuthorizeResult>;

/** The parameters the identity provider appended to the console's callback URL. */
export const ZOidcCallbackRequest = z.object({
  code: z.string().min(1, 'is required').max(2048),
  state: z.string().min(1, 'is required').max(128),
  iss: url.optional().describe('RFC 9207 issuer identifier, when the provider sends one'),
});
export type TOidcCallbackRequest = z.infer<typeof ZOidcCallbackRequest>;
