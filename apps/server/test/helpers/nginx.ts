import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './server-process.js';

export const NGINX = '/usr/sbin/nginx';
export const NGINX_TEMPLATE = path.resolve(import.meta.dirname, '..', '..', '..', '..', 'docs', 'nginx', 'portal.conf');

export interface RenderOptions {
  upstreams: number[];
  httpPort: number;
  httpsPort: number;
  certificate: string;
  key: string;
}

function replaceOnce(text: string, pattern: RegExp, replacement: string): string {
  if (!pattern.test(text)) throw new Error(`modelo do nginx sem ${pattern}`);
  return text.replace(pattern, replacement);
}

/** The operator's file (docs/nginx/portal.conf) with only its "# edit" lines changed: loopback ports, a test certificate. */
function renderPortalConf(template: string, o: RenderOptions): string {
  let text = replaceOnce(
    template,
    /(?:^[ \t]*server [^\n]*# edit: instance[^\n]*\n)+/m,
    o.upstreams.map((p) => `    server 127.0.0.1:${p};\n`).join(''),
  );
  text = replaceOnce(text, /listen 80;/, `listen 127.0.0.1:${o.httpPort};`);
  text = replaceOnce(text, /listen 443 ssl/, `listen 127.0.0.1:${o.httpsPort} ssl`);
  text = replaceOnce(text, /ssl_certificate \S+;/, `ssl_certificate ${o.certificate};`);
  return replaceOnce(text, /ssl_certificate_key \S+;/, `ssl_certificate_key ${o.key};`);
}

export interface RunningNginx {
  httpsUrl: string;
  httpUrl: string;
  stop(): Promise<void>;
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => resolve(socket.end() && true));
    socket.once('error', () => resolve(false));
  });
}

/**
 * Debian's nginx in the foreground, with everything (pid, logs, temp files) in a temp directory,
 * a self-signed certificate made by openssl and the repository's template included as it is.
 */
export async function startNginx(upstreams: number[]): Promise<RunningNginx> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-nginx-'));
  fs.chmodSync(dir, 0o755);
  const certificate = path.join(dir, 'cert.pem');
  const key = path.join(dir, 'key.pem');
  execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=localhost', '-keyout', key, '-out', certificate],
    { stdio: 'ignore' },
  );
  const [httpPort, httpsPort] = [await freePort(), await freePort()];
  fs.writeFileSync(
    path.join(dir, 'portal.conf'),
    renderPortalConf(fs.readFileSync(NGINX_TEMPLATE, 'utf8'), { upstreams, httpPort, httpsPort, certificate, key }),
  );
  const temp = (name: string) => `${name}_temp_path ${path.join(dir, name)};`;
  fs.writeFileSync(
    path.join(dir, 'nginx.conf'),
    [
      'worker_processes 1;',
      `pid ${path.join(dir, 'nginx.pid')};`,
      `error_log ${path.join(dir, 'error.log')} warn;`,
      'events { worker_connections 512; }',
      'http {',
      '  access_log off;',
      `  ${temp('client_body')} ${temp('proxy')} ${temp('fastcgi')} ${temp('uwsgi')} ${temp('scgi')}`,
      `  include ${path.join(dir, 'portal.conf')};`,
      '}',
      '',
    ].join('\n'),
  );
  const child = spawn(NGINX, ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-e', path.join(dir, 'error.log'), '-g', 'daemon off;'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  for (let i = 0; !(await listening(httpsPort)); i++) {
    if (child.exitCode !== null || i > 100) {
      const log = fs.existsSync(path.join(dir, 'error.log')) ? fs.readFileSync(path.join(dir, 'error.log'), 'utf8') : '';
      throw new Error(`nginx não subiu: ${stderr}\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    httpsUrl: `https://127.0.0.1:${httpsPort}`,
    httpUrl: `http://127.0.0.1:${httpPort}`,
    stop: async () => {
      if (child.exitCode === null) {
        child.kill('SIGQUIT');
        await exited;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
