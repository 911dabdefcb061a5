// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- the browser tests compile this file without the rest of the server
/// <reference path="./oidc-provider.d.ts" />
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type Configuration, type KoaContextWithOIDC } from 'oidc-provider';

/** The claims of a provider account (its subject is its key in `accounts`, and the login typed at the provider). */
type TestAccount = { preferred_username?: string; email?: string; groups?: string[] };

export type TestProvider = {
  /** The provider's issuer identifier (`http://127.0.0.1:<port>`). */
  issuer: string;
  port: number;
  provider: Provider;
  accounts: Map<string, TestAccount>;
  /** Replaces the ID token of the next token endpoint answer (a token substitution). */
  swapNextIdToken(idToken: string): void;
  /** Sets the provider's clock back by this many seconds while it answers the next token request. */
  rewindNextTokenRequest(seconds: number): void;
  /** Lifetime of the ID tokens it issues from now on. */
  setIdTokenTtl(seconds: number): void;
  close(): Promise<void>;
};

export const TestClient = { id: 'burrow', secret: 'burrow-client-secret-0123456789' };
export const OtherClient = { id: 'other-app', secret: 'other-client-secret-0123456789', redirectUri: 'http://127.0.0.1:9/other/callback' };

/**
 * A real OpenID provider (the `oidc-provider` package) on an ephemeral port, listening on every
 * loopback address so both `127.0.0.1` and `localhost` reach it. Its login form takes any
 * password for a known account; consent is granted without asking.
 */
export async function startTestProvider(options: { redirectUris: string[]; postLogoutRedirectUris?: string[]; port?: number }): Promise<TestProvider> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '::', resolve));
  const port = (server.address() as AddressInfo).port;
  const issuer = `http://127.0.0.1:${port}`;
  const accounts = new Map<string, TestAccount>();
  let idTokenTtl = 3600;
  let swap: string | undefined;
  let rewind = 0;

  const configuration: Configuration = {
    clients: [
      {
        client_id: TestClient.id,
        client_secret: TestClient.secret,
        redirect_uris: options.redirectUris,
        post_logout_redirect_uris: options.postLogoutRedirectUris ?? [],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
      {
        client_id: OtherClient.id,
        client_secret: OtherClient.secret,
        redirect_uris: [OtherClient.redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    async findAccount(_ctx: unknown, id: string) {
      const account = accounts.get(id);
      if (!account) return undefined;
      return { accountId: id, claims: async () => ({ ...account, sub: id }) };
    },
    claims: { openid: ['sub'], profile: ['preferred_username'], email: ['email'], groups: ['groups'] },
    scopes: ['openid', 'profile', 'email', 'groups'],
    features: { devInteractions: { enabled: true }, rpInitiatedLogout: { enabled: true } },
    pkce: { required: () => true },
    ttl: { IdToken: () => idTokenTtl },
    cookies: { keys: ['burrow-test-provider-cookie-key'] },
    // Consent is granted at once, for every scope asked.
    async loadExistingGrant(ctx: KoaContextWithOIDC) {
      const grantId = ctx.oidc.result?.consent?.grantId || ctx.oidc.session!.grantIdFor(ctx.oidc.client!.clientId);
      if (grantId) return ctx.oidc.provider.Grant.find(grantId);
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client!.clientId, accountId: ctx.oidc.session!.accountId });
      grant.addOIDCScope('openid profile email groups');
      await grant.save();
      return grant;
    },
  };
  const provider = new Provider(issuer, configuration);
  provider.use(async (ctx, next) => {
    const isToken = ctx.method === 'POST' && ctx.path === '/token';
    if (isToken && rewind) {
      const shift = rewind * 1000;
      rewind = 0;
      const realNow = Date.now;
      Date.now = () => realNow() - shift;
      try {
        await next();
      } finally {
        Date.now = realNow;
      }
    } else {
      await next();
    }
    if (isToken && swap && ctx.body && typeof ctx.body === 'object') {
      ctx.body = { ...(ctx.body as Record<string, unknown>), id_token: swap };
      swap = undefined;
    }
  });
  server.on('request', provider.callback());

  return {
    issuer,
    port,
    provider,
    accounts,
    swapNextIdToken(idToken) {
      swap = idToken;
    },
    rewindNextTokenRequest(seconds) {
      rewind = seconds;
    },
    setIdTokenTtl(seconds) {
      idTokenTtl = seconds;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A browser as far as sign-in needs one: a cookie jar (by host and path, as browsers keep them)
 * and requests whose redirects are followed by hand.
 */
export class TestBrowser {
  private readonly cookies = new Map<string, { value: string; path: string }>();

  private key(host: string, name: string, path: string): string {
    return `${host}\u0000${path}\u0000${name}`;
  }

  private store(url: URL, response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';').map((part) => part.trim());
      const equals = pair!.indexOf('=');
      const name = pair!.slice(0, equals);
      const value = pair!.slice(equals + 1);
      let path = '/';
      let expired = false;
      for (const attribute of attributes) {
        const [attributeName, attributeValue = ''] = attribute.split('=');
        if (attributeName!.toLowerCase() === 'path') path = attributeValue;
        if (attributeName!.toLowerCase() === 'max-age' && Number(attributeValue) <= 0) expired = true;
        if (attributeName!.toLowerCase() === 'expires' && Date.parse(attributeValue) < Date.now()) expired = true;
      }
      const key = this.key(url.hostname, name, path);
      if (expired) this.cookies.delete(key);
      else this.cookies.set(key, { value, path });
    }
  }

  /** The Cookie header this browser sends to a URL. */
  cookieHeader(url: URL): string {
    const pairs: string[] = [];
    for (const [key, cookie] of this.cookies) {
      const [host, , name] = key.split('\u0000');
      if (host !== url.hostname) continue;
      if (url.pathname !== cookie.path && !url.pathname.startsWith(cookie.path.endsWith('/') ? cookie.path : `${cookie.path}/`)) continue;
      pairs.push(`${name}=${cookie.value}`);
    }
    return pairs.join('; ');
  }

  /** Whether a cookie of this name is held for a URL. */
  hasCookie(url: string, name: string): boolean {
    return this.cookieHeader(new URL(url)).split('; ').some((pair) => pair.startsWith(`${name}=`));
  }

  /** One request, no redirect followed. */
  async request(url: string, init: { method?: string; form?: Record<string, string> } = {}): Promise<Response> {
    const target = new URL(url);
    const headers: Record<string, string> = {};
    const cookie = this.cookieHeader(target);
    if (cookie) headers.cookie = cookie;
    let body: string | undefined;
    if (init.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(init.form).toString();
    }
    const response = await fetch(target, { method: init.method ?? (body ? 'POST' : 'GET'), headers, body, redirect: 'manual' });
    this.store(target, response);
    return response;
  }

  /** Follows redirects from `url` until one leads to where `stop` says, answering that URL (not visited). */
  async followUntil(url: string, stop: (next: URL) => boolean): Promise<{ url: string; last?: Response }> {
    let current = url;
    for (let hop = 0; hop < 20; hop++) {
      if (stop(new URL(current))) return { url: current };
      const response = await this.request(current);
      const location = response.headers.get('location');
      if (!location) return { url: current, last: response };
      await response.arrayBuffer();
      current = new URL(location, current).href;
    }
    throw new Error('too many redirects');
  }
}

/**
 * Walks the provider's side of a sign-in from its authorization URL: the login form (any
 * password), then the redirect back. Answers the callback URL the provider sends the browser
 * to, without visiting it.
 */
export async function signInAtProvider(browser: TestBrowser, authorizationUrl: string, login: string, callbackPrefix: string): Promise<string> {
  const atForm = await browser.followUntil(authorizationUrl, (next) => next.href.startsWith(callbackPrefix));
  if (atForm.url.startsWith(callbackPrefix)) return atForm.url;
  const page = await atForm.last!.text();
  const action = /<form[^>]*action="([^"]+)"/.exec(page)?.[1];
  if (!action) throw new Error(`no login form at ${atForm.url}: ${page.slice(0, 200)}`);
  const submitted = await browser.request(new URL(action.replace(/&amp;/g, '&'), atForm.url).href, { form: { prompt: 'login', login, password: 'any' } });
  const location = submitted.headers.get('location');
  if (!location) throw new Error(`the provider refused the login: ${submitted.status} ${(await submitted.text()).slice(0, 200)}`);
  const back = await browser.followUntil(new URL(location, atForm.url).href, (next) => next.href.startsWith(callbackPrefix));
  if (!back.url.startsWith(callbackPrefix)) throw new Error(`the provider did not send the browser back: ${back.last?.status} ${(await back.last?.text())?.slice(0, 300)}`);
  return back.url;
}
