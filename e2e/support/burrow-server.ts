import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const serverEntry = path.join(repositoryRoot, 'server/dist/main.js');
export const webDist = path.join(repositoryRoot, 'web/dist');

export const AdminPassword = 'e2e-admin-password-4f1c';

export type ServerOptions = {
  /** Serve below a URL prefix, e.g. `/burrow`. */
  baseURL?: string;
  /** Token lifetime such as `5s` or `2h`. */
  tokenExpiration?: string;
  /** Stored settings applied with `burrow config set <key> <value>` before the server starts. */
  settings?: Record<string, string>;
  /** Extra environment (BURROW_EXTERNAL_CHAT_URL, BURROW_RECAPTCHA_KEY, …). */
  env?: Record<string, string>;
  /** Extra command-line flags for `serve`. */
  args?: string[];
};

export type UserSpec = {
  username?: string;
  password?: string;
  admin?: boolean;
  locale?: string;
  scope?: string;
  perm?: Partial<Record<'create' | 'rename' | 'modify' | 'delete' | 'share' | 'download' | 'execute', boolean>>;
  lockPassword?: boolean;
};

export type CreatedUser = { id: number; username: string; password: string };

let userCounter = 0;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

function assertBuilt() {
  for (const file of [serverEntry, path.join(webDist, 'index.html')]) {
    if (!fs.existsSync(file)) throw new Error(`${path.relative(repositoryRoot, file)} is missing: run \`npm run build\` before the browser tests`);
  }
}

/** A running Burrow server with its own temporary root folder and database. */
export class BurrowServer {
  readonly origin: string;
  /** Origin plus base URL, without a trailing slash: prefix of every page and API path. */
  readonly url: string;
  private adminTokenValue: string | undefined;
  private output = '';

  private constructor(
    readonly port: number,
    readonly baseURL: string,
    readonly home: string,
    readonly root: string,
    readonly database: string,
    private readonly child: ChildProcess,
  ) {
    this.origin = `http://127.0.0.1:${port}`;
    this.url = this.origin + baseURL;
    child.stdout?.on('data', (chunk: Buffer) => (this.output = (this.output + chunk.toString()).slice(-8000)));
    child.stderr?.on('data', (chunk: Buffer) => (this.output = (this.output + chunk.toString()).slice(-8000)));
  }

  static async start(options: ServerOptions = {}): Promise<BurrowServer> {
    assertBuilt();
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-e2e-'));
    // Commands run as an unprivileged user in a sandbox that looks the scope up from `/`: the
    // folders above the root must let that user pass, as a server's data folder would.
    fs.chmodSync(home, 0o755);
    const root = path.join(home, 'root');
    const database = path.join(home, 'burrow.db');
    fs.mkdirSync(root);
    const env = { ...process.env, BURROW_ADMIN_PASSWORD: AdminPassword, ...options.env };
    const common = ['--root', root, '--database', database, '--log-level', 'warn'];
    for (const [key, value] of Object.entries(options.settings ?? {})) {
      const result = spawnSync(process.execPath, [serverEntry, 'config', 'set', key, value, ...common], { env, encoding: 'utf8', timeout: 20_000 });
      if (result.status !== 0) throw new Error(`config set ${key} failed: ${result.stderr || result.stdout}`);
    }
    const port = await freePort();
    const args = [serverEntry, 'serve', '--port', String(port), ...common];
    if (options.baseURL) args.push('--base-url', options.baseURL);
    if (options.tokenExpiration) args.push('--token-expiration', options.tokenExpiration);
    args.push(...(options.args ?? []));
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const server = new BurrowServer(port, options.baseURL ?? '', home, root, database, child);
    await server.waitUntilHealthy();
    return server;
  }

  private async waitUntilHealthy(): Promise<void> {
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      if (this.child.exitCode !== null) throw new Error(`the server exited with ${this.child.exitCode}:\n${this.output}`);
      try {
        const response = await fetch(`${this.url}/health`, { signal: AbortSignal.timeout(1000) });
        if (response.ok) return;
      } catch {
        // Not listening yet.
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    this.child.kill('SIGKILL');
    throw new Error(`the server did not become healthy in time:\n${this.output}`);
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
      this.child.kill('SIGTERM');
      const timer = setTimeout(() => this.child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
    fs.rmSync(this.home, { recursive: true, force: true });
  }

  /** A raw API call: `path` starts with `/api/…` (the base URL is added). */
  async api(method: string, apiPath: string, options: { token?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<Response> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers['x-auth'] = options.token;
    let body: string | undefined;
    if (options.body !== undefined) {
      body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    return fetch(this.url + apiPath, { method, headers, body, signal: AbortSignal.timeout(10_000) });
  }

  /** Like `api`, but throws on a non-2xx answer. */
  async apiOk(method: string, apiPath: string, options: { token?: string; body?: unknown } = {}): Promise<Response> {
    const response = await this.api(method, apiPath, options);
    if (!response.ok) throw new Error(`${method} ${apiPath} answered ${response.status}: ${await response.text()}`);
    return response;
  }

  async login(username: string, password: string): Promise<string> {
    const response = await this.apiOk('POST', '/api/login', { body: { username, password } });
    return response.text();
  }

  async adminToken(): Promise<string> {
    this.adminTokenValue ??= await this.login('admin', AdminPassword);
    return this.adminTokenValue;
  }

  /** Creates a user through the API (as admin); usernames are unique unless given. */
  async createUser(spec: UserSpec = {}): Promise<CreatedUser> {
    userCounter += 1;
    const username = spec.username ?? `user${process.pid}x${userCounter}`;
    const password = spec.password ?? `pw-${username}-long-enough`;
    const perm = {
      admin: Boolean(spec.admin),
      execute: false,
      create: true,
      rename: true,
      modify: true,
      delete: true,
      share: true,
      download: true,
      ...(spec.admin ? { execute: true } : {}),
      ...spec.perm,
    };
    const response = await this.apiOk('POST', '/api/users', {
      token: await this.adminToken(),
      body: {
        what: 'user',
        which: [],
        current_password: AdminPassword,
        data: {
          username,
          password,
          scope: spec.scope ?? '',
          locale: spec.locale ?? 'en',
          lockPassword: spec.lockPassword ?? false,
          perm,
          commands: [],
          rules: [],
          viewMode: 'list',
          singleClick: false,
          redirectAfterCopyMove: true,
          hideDotfiles: false,
          dateFormat: false,
          aceEditorTheme: '',
          sorting: { by: 'name', asc: false },
        },
      },
    });
    const id = Number(/(\d+)$/.exec(response.headers.get('location') ?? '')?.[1]);
    if (!id) throw new Error('user created without a Location header');
    return { id, username, password };
  }

  /** Runs the server's command line against this server's root and database (`users add …`). */
  cli(...args: string[]): string {
    const result = spawnSync(process.execPath, [serverEntry, ...args, '--root', this.root, '--database', this.database, '--log-level', 'warn'], {
      env: { ...process.env, BURROW_ADMIN_PASSWORD: AdminPassword },
      encoding: 'utf8',
      timeout: 20_000,
    });
    if (result.status !== 0) throw new Error(`burrow ${args.join(' ')} failed: ${result.stderr || result.stdout}`);
    return result.stdout;
  }

  /** Changes the user's own language preference (the profile screen sends the same request). */
  async setLocale(user: CreatedUser, locale: string): Promise<void> {
    const token = await this.login(user.username, user.password);
    await this.apiOk('PUT', `/api/users/${user.id}`, { token, body: { what: 'user', which: ['locale'], data: { id: user.id, locale } } });
  }

  /** Reads the global settings, applies `change` to them and saves them (as admin). */
  async updateSettings(change: (settings: Record<string, any>) => void): Promise<void> {
    const token = await this.adminToken();
    const settings = (await (await this.apiOk('GET', '/api/settings', { token })).json()) as Record<string, any>;
    change(settings);
    await this.apiOk('PUT', '/api/settings', { token, body: settings });
  }
}
