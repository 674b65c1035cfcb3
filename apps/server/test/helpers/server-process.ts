import { execFile, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { TEST_ENV, TEST_PRIVACY_OFFICER_ENV, TEST_VAPID_ENV } from './app.js';

const serverDir = path.resolve(import.meta.dirname, '..', '..');
const repoRoot = path.resolve(serverDir, '..', '..');

/** 48 characters, new each run: production wants a long webhook token, and none the repository ships (founding decision 28). */
export const PROCESS_WEBHOOK_TOKEN = `token-de-teste-${randomBytes(16).toString('hex')}`;

/**
 * The environment of a spawned server: production mode, cheap argon2, request limits out of the
 * way. A demonstration (founding decision 28): production refuses the local Pix provider without it.
 */
export const PROCESS_ENV: Record<string, string> = {
  ...TEST_ENV,
  NODE_ENV: 'production',
  DEMONSTRATION: 'true',
  LOG_LEVEL: 'info',
  HOST: '127.0.0.1',
  PORT: '0',
  PIX_WEBHOOK_TOKEN: PROCESS_WEBHOOK_TOKEN,
  ...TEST_VAPID_ENV,
  ...TEST_PRIVACY_OFFICER_ENV,
  LOGIN_MAX_PER_ADDRESS: '1000000',
  LOGIN_MAX_PER_DOCUMENT_ADDRESS: '1000000',
  LOGIN_DOCUMENT_FREE_ATTEMPTS: '1000000',
};

/**
 * Bundles the server (esbuild, well under a second) into a directory of this test file's own, so
 * parallel test files and `npm run build` never share a half-written dist. It sits under
 * node_modules so the bundle's external packages resolve as from dist.
 */
export async function buildServer(): Promise<{ main: string; cli: string; remove: () => void }> {
  const outdir = path.join(serverDir, 'node_modules', '.portal-test-dist', `${process.pid}-${randomBytes(4).toString('hex')}`);
  await promisify(execFile)(process.execPath, ['build.mjs'], { cwd: serverDir, env: { ...process.env, SERVER_BUILD_OUTDIR: outdir } });
  return {
    main: path.join(outdir, 'main.js'),
    cli: path.join(outdir, 'cli.js'),
    remove: () => fs.rmSync(outdir, { recursive: true, force: true }),
  };
}

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  url: string;
  output: () => string;
  /** The exit code (null when killed by a signal). */
  exited: Promise<number | null>;
}

/**
 * Starts `node main.js` and resolves once it listens (its port is read from its start line). A variable
 * given as undefined is left out (a development start without HOST).
 */
export function startServer(main: string, env: Record<string, string | undefined>): Promise<ServerProcess> {
  const merged = Object.entries({ PATH: process.env.PATH ?? '', ...PROCESS_ENV, ...env }).filter(
    (entry): entry is [string, string] => entry[1] !== undefined,
  );
  const child = spawn(process.execPath, [main], {
    cwd: repoRoot,
    env: Object.fromEntries(merged),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const m = /Portal do Motorista em http:\/\/[^\s/]+:(\d+)/.exec(out);
      if (m) {
        child.stdout?.off('data', onData);
        child.stdout?.on('data', (c: Buffer) => (out += c.toString('utf8')));
        const port = Number(m[1]);
        resolve({ child, port, url: `http://127.0.0.1:${port}`, output: () => out, exited });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (c: Buffer) => (out += c.toString('utf8')));
    void exited.then((code) => reject(new Error(`o servidor saiu (código ${code}) antes de escutar:\n${out}`)));
  });
}

/** SIGTERM, then SIGKILL if it has not exited after `ms`. */
export async function stopServer(server: ServerProcess | undefined, ms = 10_000): Promise<void> {
  if (!server || server.child.exitCode !== null || server.child.signalCode !== null) return;
  server.child.kill('SIGTERM');
  const timer = setTimeout(() => server.child.kill('SIGKILL'), ms);
  await server.exited;
  clearTimeout(timer);
}

/** A free loopback port (for nginx, which cannot report an ephemeral one). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

export interface HttpAnswer {
  statusCode: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  json<T = Record<string, unknown>>(): T;
}

export interface RequestOptions {
  method?: string;
  url: string;
  headers?: Record<string, string>;
  payload?: unknown;
  /** The client's own loopback address (127.0.0.2...): what nginx appends to X-Forwarded-For. */
  localAddress?: string;
}

/**
 * One real HTTP(S) request on its own connection (no keep-alive: a signal test knows which
 * request a socket carried). HTTPS is nginx with its self-signed test certificate.
 */
export function request(baseUrl: string, opts: RequestOptions): Promise<HttpAnswer> {
  const body = opts.payload === undefined ? undefined : JSON.stringify(opts.payload);
  const target = new URL(opts.url, baseUrl);
  return new Promise((resolve, reject) => {
    const client = target.protocol === 'https:' ? https : http;
    const req = client.request(
      target,
      {
        method: opts.method ?? 'GET',
        agent: false,
        rejectUnauthorized: false,
        localAddress: opts.localAddress,
        headers: {
          ...(body === undefined ? {} : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) }),
          ...opts.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          if (!res.complete) return reject(new Error('resposta cortada'));
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ statusCode: res.statusCode ?? 0, headers: res.headers, body: text, json: <T>() => JSON.parse(text) as T });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * The test helpers speak app.inject; this answers it over real HTTP, so a driver's steps
 * (registerDriver, fund, registerTag...) run against a spawned server or nginx unchanged.
 */
export function overHttp(baseUrl: string): FastifyInstance {
  const inject = (opts: RequestOptions) => request(baseUrl, opts);
  return { inject } as unknown as FastifyInstance;
}
