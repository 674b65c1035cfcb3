import fs from 'node:fs';
import { isIP } from 'node:net';
import { serverMessages } from '@portal/domain';
import { dialectOf, sqlitePath } from './db/connection.js';

/**
 * Where a server listens and how the operator's commands find it (issue 33, decision 61). In development
 * the server listens on 127.0.0.1 unless HOST says otherwise; in production on every interface, behind
 * its proxy. The CLI reads SERVER_URL, HOST and PORT as the server does; without any of them, it asks the
 * server that last started on the same SQLite file, which writes its address beside it.
 */

const EVERY_INTERFACE = new Set(['0.0.0.0', '::', '::0']);

/** The address a browser or the CLI on this machine opens: loopback when the server listens everywhere. */
export function serverUrlOf(host: string, port: number): string {
  if (EVERY_INTERFACE.has(host)) return `http://127.0.0.1:${port}`;
  return isIP(host) === 6 ? `http://[${host}]:${port}` : `http://${host}:${port}`;
}

/** The start line: the address to open, and whether other machines reach it. */
export function startLine(host: string, port: number): string {
  const texts = serverMessages.startup;
  const where = EVERY_INTERFACE.has(host)
    ? texts.everyInterface.replace('{host}', host)
    : host === '127.0.0.1' || host === '::1' || host === 'localhost'
      ? texts.thisMachineOnly
      : texts.oneAddress.replace('{host}', host);
  return `${texts.listening.replace('{url}', serverUrlOf(host, port))} ${where}`;
}

/** The file beside a SQLite database where its running server writes its address; null for PostgreSQL or memory. */
function addressFileOf(databaseUrl: string): string | null {
  if (dialectOf(databaseUrl) !== 'sqlite') return null;
  const file = sqlitePath(databaseUrl);
  return file === ':memory:' ? null : `${file}.server-url`;
}

/** Written once the server listens; a failure to write only costs the CLI its guess. */
export function recordServerUrl(databaseUrl: string, url: string): void {
  const file = addressFileOf(databaseUrl);
  if (file === null) return;
  try {
    fs.writeFileSync(file, `${url}\n`);
  } catch {
    // A read-only directory: the CLI falls back to HOST and PORT.
  }
}

/** Removed at a clean stop, unless another server has written its own since. */
export function forgetServerUrl(databaseUrl: string, url: string): void {
  const file = addressFileOf(databaseUrl);
  if (file === null) return;
  try {
    if (fs.readFileSync(file, 'utf8').trim() === url) fs.rmSync(file);
  } catch {
    // Already gone.
  }
}

/**
 * The running server the CLI talks to: SERVER_URL; else HOST and PORT when either is set, read as the
 * server reads them (`configured`); else the address the server on this database wrote; else `configured`.
 */
export function cliServerUrl(configured: string, databaseUrl: string, env: NodeJS.ProcessEnv): string {
  if (env.SERVER_URL || env.HOST || env.PORT) return configured;
  const file = addressFileOf(databaseUrl);
  if (file === null) return configured;
  try {
    const recorded = fs.readFileSync(file, 'utf8').trim();
    return /^http:\/\/[^\s/]+$/.test(recorded) ? recorded : configured;
  } catch {
    return configured;
  }
}
