import { generateKeyPairSync } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/**
 * Identity providers for single sign-on tests, each on a free port of 127.0.0.1: a real OpenID
 * provider (the certified `oidc-provider`, with its development login and consent pages), and a
 * CAS server that speaks the CAS 3.0 validation protocol.
 */

export interface RunningProvider {
  url: string;
  stop(): Promise<void>;
}

async function listen(server: Server, port = 0): Promise<string> {
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function stopper(server: Server) {
  return () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
}

export interface OidcClientSpec {
  clientId: string;
  redirectUris: string[];
}

/**
 * Public clients (PKCE, no secret). Whatever login is typed on the provider's login page becomes
 * the account, whose `preferred_username` is that login. `port`: a port chosen beforehand (the
 * BLRMS server under test is told the issuer before the provider knows the console's address).
 */
export async function startOidcProvider(
  clients: OidcClientSpec[],
  port = 0,
): Promise<RunningProvider> {
  const server = createServer();
  const url = await listen(server, port);
  const provider = new Provider(url, {
    clients: clients.map((c) => ({
      client_id: c.clientId,
      redirect_uris: c.redirectUris,
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code'],
      response_types: ['code'],
    })),
    pkce: { required: () => true },
    jwks: {
      keys: [
        generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }),
      ],
    },
    cookies: { keys: ['sso-test-cookie-key'] },
    claims: { openid: ['sub'], profile: ['preferred_username', 'name'] },
    features: { devInteractions: { enabled: true } },
    findAccount: (_ctx, id) => ({
      accountId: id,
      claims: () => ({ sub: id, preferred_username: id, name: id }),
    }),
  });
  const handle = provider.callback();
  // The provider answers its errors itself; a rejection here would only repeat one it has sent.
  server.on('request', (request, response) => {
    void handle(request, response);
  });
  return { url, stop: stopper(server) };
}

export interface CasServer extends RunningProvider {
  /**
   * A new service ticket for the user (with its attributes) and that service: valid once, or
   * every time when `lax` (as a lax CAS server would).
   */
  issue(
    user: string,
    service: string,
    options?: { attributes?: Record<string, string>; lax?: boolean },
  ): string;
  /** Validation requests received, for tests that check the server was (not) asked. */
  validations: number;
}

const escapeXml = (s: string) => s.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * `/login?service=` issues a ticket for the user named in `?user=` (default `ssouser`) and sends
 * the browser straight back; `/p3/serviceValidate` answers the CAS 3.0 XML, success once per
 * ticket (every time for a lax one) and `INVALID_TICKET` otherwise.
 */
export async function startCasServer(): Promise<CasServer> {
  const tickets = new Map<
    string,
    { user: string; service: string; attributes: Record<string, string>; lax: boolean }
  >();
  let counter = 0;
  const server = createServer();
  const cas: CasServer = {
    url: await listen(server),
    stop: stopper(server),
    validations: 0,
    issue(user, service, options = {}) {
      counter += 1;
      const ticket = `ST-${counter}-${Math.random().toString(36).slice(2)}`;
      tickets.set(ticket, {
        user,
        service,
        attributes: options.attributes ?? {},
        lax: options.lax ?? false,
      });
      return ticket;
    },
  };
  server.on('request', (req, res) => {
    const url = new URL(req.url ?? '/', cas.url);
    if (url.pathname === '/login') {
      const service = url.searchParams.get('service') ?? '';
      const ticket = cas.issue(url.searchParams.get('user') ?? 'ssouser', service);
      const back = new URL(service);
      back.searchParams.set('ticket', ticket);
      res.writeHead(302, { location: back.href }).end();
      return;
    }
    if (url.pathname === '/p3/serviceValidate') {
      cas.validations += 1;
      const ticket = url.searchParams.get('ticket') ?? '';
      const service = url.searchParams.get('service') ?? '';
      const issued = tickets.get(ticket);
      if (!issued?.lax) tickets.delete(ticket);
      res.writeHead(200, { 'content-type': 'application/xml;charset=UTF-8' });
      if (!issued || issued.service !== service) {
        res.end(
          `<cas:serviceResponse xmlns:cas="http://www.yale.edu/tp/cas">
  <cas:authenticationFailure code="INVALID_TICKET">Ticket ${escapeXml(ticket)} not recognized</cas:authenticationFailure>
</cas:serviceResponse>`,
        );
        return;
      }
      const attributes = Object.entries(issued.attributes)
        .map(([k, v]) => `      <cas:${k}>${escapeXml(v)}</cas:${k}>`)
        .join('\n');
      res.end(
        `<cas:serviceResponse xmlns:cas="http://www.yale.edu/tp/cas">
  <cas:authenticationSuccess>
    <cas:user>${escapeXml(issued.user)}</cas:user>
    <cas:attributes>
      <cas:authenticationDate>2026-11-26T10:00:00Z</cas:authenticationDate>
${attributes}
    </cas:attributes>
  </cas:authenticationSuccess>
</cas:serviceResponse>`,
      );
      return;
    }
    res.writeHead(404).end();
  });
  return cas;
}
