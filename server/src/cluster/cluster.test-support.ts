import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// Several real Burrow processes over one database, one root and one cache folder, and a
// round-robin proxy in front of them: a cluster as a load balancer sees it.

const serverDir = fileURLToPath(new URL('../..', import.meta.url));
const mainFile = path.join(serverDir, 'src', 'main.ts');

/** A tsconfig for the children: tsx runs the sources, @burrow/protocol included (no build output involved). */
export function childTsconfig(): { file: string; remove(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-cluster-tsconfig-'));
  const file = path.join(dir, 'tsconfig.json');
  fs.writeFileSync(
    file,
    JSON.stringify({
      extends: path.join(serverDir, 'tsconfig.json'),
      compilerOptions: { paths: { '@burrow/protocol': [path.join(serverDir, '..', 'protocol', 'src', 'index.ts')] } },
    }),
  );
  return { file, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

export type Instance = {
  readonly name: string;
  port: number;
  child: ChildProcess;
  /** The last 20 000 characters the process wrote. */
  output(): string;
  /** SIGKILL, resolved once the process is gone. */
  kill(): Promise<void>;
  alive(): boolean;
};

export type InstanceOptions = {
  name: string;
  database: string;
  root: string;
  cacheDir: string;
  tsconfig: string;
  adminPassword: string;
  /** Extra environment (BURROW_* settings). */
  env?: Record<string, string>;
  startTimeoutMs?: number;
};

/** Starts `burrow serve` on a free port of 127.0.0.1 and resolves once it listens. */
export function startInstance(options: InstanceOptions): Promise<Instance> {
  const args = ['--import', 'tsx', mainFile, 'serve', '--root', options.root, '--database', options.database, '--cache-dir', options.cacheDir, '--address', '127.0.0.1', '--port', '0', '--log-level', 'info'];
  const child = spawn(process.execPath, args, {
    cwd: serverDir,
    env: { ...process.env, ...options.env, BURROW_ADMIN_PASSWORD: options.adminPassword, TSX_TSCONFIG_PATH: options.tsconfig },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const instance: Instance = {
    name: options.name,
    port: 0,
    child,
    output: () => output,
    alive: () => child.exitCode === null && child.signalCode === null,
    async kill() {
      if (instance.alive()) child.kill('SIGKILL');
      await exited;
    },
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void instance.kill();
      reject(new Error(`${options.name} did not start:\n${output}`));
    }, options.startTimeoutMs ?? 60_000);
    const onData = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-20_000);
      const match = /at http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
      if (match && instance.port === 0) {
        clearTimeout(timer);
        instance.port = Number(match[1]);
        resolve(instance);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (instance.port === 0) reject(new Error(`${options.name} exited (${code ?? signal}) before listening:\n${output}`));
    });
  });
}

export type Proxy = {
  port: number;
  /** Requests each backend was given, by its index in `backends`. */
  served: number[];
  /** Replaces a backend (a restarted instance on a new port). */
  setBackend(index: number, port: number): void;
  close(): Promise<void>;
};

/**
 * A round-robin HTTP proxy on 127.0.0.1: each request (and each WebSocket upgrade) goes to the
 * next backend in turn. A backend that refuses the connection is skipped for that request when
 * nothing of the body has been sent yet, as a load balancer's health checks would arrange; a
 * backend that fails in the middle cuts the client's connection.
 */
export async function startProxy(backends: number[]): Promise<Proxy> {
  const ports = [...backends];
  const served = ports.map(() => 0);
  let next = 0;
  const agent = new http.Agent({ keepAlive: true });
  const pick = () => {
    const index = next % ports.length;
    next += 1;
    return index;
  };
  const sockets = new Set<net.Socket>();

  const forward = (incoming: http.IncomingMessage, outgoing: http.ServerResponse, tries: number) => {
    const index = pick();
    const upstream = http.request(
      { host: '127.0.0.1', port: ports[index], method: incoming.method, path: incoming.url, headers: { ...incoming.headers, 'x-forwarded-for': incoming.socket.remoteAddress ?? '' }, agent },
      (response) => {
        served[index] = (served[index] ?? 0) + 1;
        outgoing.writeHead(response.statusCode ?? 502, response.headers);
        response.pipe(outgoing);
        response.on('error', () => outgoing.destroy());
      },
    );
    let started = false;
    upstream.on('error', (error: NodeJS.ErrnoException) => {
      if (!started && error.code === 'ECONNREFUSED' && tries > 1) {
        forward(incoming, outgoing, tries - 1);
        return;
      }
      if (!outgoing.headersSent) outgoing.writeHead(502).end();
      else outgoing.destroy();
      incoming.destroy();
    });
    upstream.on('socket', (socket) => {
      socket.once('connect', () => {
        started = true;
        incoming.pipe(upstream);
      });
      // A reused keep-alive socket is connected already.
      if (!socket.connecting) {
        started = true;
        incoming.pipe(upstream);
      }
    });
    outgoing.on('close', () => {
      if (!outgoing.writableFinished) upstream.destroy();
    });
  };

  const server = http.createServer((incoming, outgoing) => forward(incoming, outgoing, ports.length));
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.on('upgrade', (incoming: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
    const index = pick();
    const upstream = http.request({ host: '127.0.0.1', port: ports[index], method: incoming.method, path: incoming.url, headers: incoming.headers });
    upstream.on('upgrade', (response, upstreamSocket, upstreamHead) => {
      served[index] = (served[index] ?? 0) + 1;
      const lines = [`HTTP/1.1 ${response.statusCode} ${response.statusMessage}`];
      for (let at = 0; at < response.rawHeaders.length; at += 2) lines.push(`${response.rawHeaders[at]}: ${response.rawHeaders[at + 1]}`);
      socket.write(lines.join('\r\n') + '\r\n\r\n');
      if (upstreamHead.length) socket.write(upstreamHead);
      if (head.length) upstreamSocket.write(head);
      upstreamSocket.pipe(socket).pipe(upstreamSocket);
      upstreamSocket.on('error', () => socket.destroy());
      socket.on('error', () => upstreamSocket.destroy());
    });
    upstream.on('response', (response) => {
      served[index] = (served[index] ?? 0) + 1;
      const lines = [`HTTP/1.1 ${response.statusCode} ${response.statusMessage}`];
      for (let at = 0; at < response.rawHeaders.length; at += 2) lines.push(`${response.rawHeaders[at]}: ${response.rawHeaders[at + 1]}`);
      socket.write(lines.join('\r\n') + '\r\n\r\n');
      response.pipe(socket);
    });
    upstream.on('error', () => socket.destroy());
    upstream.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    served,
    setBackend(index, port) {
      ports[index] = port;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      agent.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
