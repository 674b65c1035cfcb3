import { createDecipheriv, createECDH, createPublicKey, hkdfSync, randomBytes, randomUUID, verify } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A device as the browser is: its P-256 key pair and auth secret (RFC 8291), and the subscription it hands the portal. */
export interface TestDevice {
  endpoint: string;
  /** PushSubscription.toJSON(): what the web app PUTs. */
  subscription: { endpoint: string; keys: { p256dh: string; auth: string } };
  /** The messages this device received and decrypted, oldest first. */
  received: ReceivedPush[];
  /** The statuses to answer next, one per push (then 201). */
  answers: number[];
}

/** One push request as the push service received it, decrypted as the browser would. */
export interface ReceivedPush {
  payload: unknown;
  ttl: string | undefined;
  urgency: string | undefined;
  /** The VAPID token's claims, after its signature was checked against `vapidKey`. */
  jwt: { aud: string; exp: number; sub: string };
  /** The k= of the Authorization header: the server's public key. */
  vapidKey: string;
  /** What the push service answered. */
  status: number;
}

interface DeviceKeys {
  ecdh: ReturnType<typeof createECDH>;
  auth: Buffer;
}

function decodeJwtPart(part: string): unknown {
  return JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
}

/**
 * RFC 8292: 'vapid t=<JWT>, k=<public key>'. The JWT must be ES256, signed by k, for this origin.
 * Throws when anything is off (the push service would answer 401/403).
 */
function checkVapid(headers: IncomingHttpHeaders, origin: string): { jwt: ReceivedPush['jwt']; vapidKey: string } {
  const header = headers.authorization ?? '';
  const m = /^vapid t=([A-Za-z0-9_.-]+), ?k=([A-Za-z0-9_-]+)$/.exec(header);
  if (!m?.[1] || !m[2]) throw new Error(`Authorization VAPID inválido: ${header}`);
  const [head, body, signature] = m[1].split('.');
  if (!head || !body || !signature) throw new Error('JWT malformado');
  const point = Buffer.from(m[2], 'base64url');
  const key = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33, 65).toString('base64url') },
    format: 'jwk',
  });
  const signed = verify('sha256', Buffer.from(`${head}.${body}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'));
  if (!signed) throw new Error('assinatura VAPID não confere com a chave k=');
  const alg = (decodeJwtPart(head) as { alg?: string }).alg;
  if (alg !== 'ES256') throw new Error(`alg ${alg}`);
  const jwt = decodeJwtPart(body) as ReceivedPush['jwt'];
  if (jwt.aud !== origin) throw new Error(`aud ${jwt.aud} não é a origem ${origin}`);
  const now = Date.now() / 1000;
  if (!(jwt.exp > now && jwt.exp <= now + 24 * 3600)) throw new Error(`exp fora de 24 horas: ${jwt.exp}`);
  return { jwt, vapidKey: m[2] };
}

/**
 * RFC 8291 with RFC 8188 (aes128gcm), as a browser decrypts a push: the header's salt and the
 * server's ephemeral key, ECDH with the device's private key, HKDF over the auth secret, then
 * AES-128-GCM of the one record, its padding delimiter 0x02 removed.
 */
function decryptPush(body: Buffer, device: DeviceKeys): string {
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body.readUInt8(20);
  const serverKey = body.subarray(21, 21 + idLength);
  const record = body.subarray(21 + idLength);
  if (record.length > recordSize) throw new Error('mais de um registro');
  const devicePublic = device.ecdh.getPublicKey();
  const secret = device.ecdh.computeSecret(serverKey);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), devicePublic, serverKey]);
  const ikm = Buffer.from(hkdfSync('sha256', secret, device.auth, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end -= 1;
  if (padded[end] !== 2) throw new Error('delimitador de preenchimento ausente (último registro)');
  return padded.subarray(0, end).toString('utf8');
}

/**
 * A push service on 127.0.0.1 for the tests: each device has its own endpoint; a push is checked
 * (VAPID, Content-Encoding, TTL), decrypted with the device's keys and recorded; the answer is the
 * device's next scripted status, 201 otherwise.
 */
export class TestPushService {
  private server: http.Server | null = null;
  private origin = '';
  private readonly devices = new Map<string, TestDevice & { keys: DeviceKeys }>();
  /** Requests that could not be read as a browser's push service would (their error). */
  readonly errors: string[] = [];
  /** How long each answer takes (a slow push service makes two drainers overlap). */
  delayMs = 0;

  async start(): Promise<void> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const device = this.devices.get(req.url ?? '');
        if (!device || req.method !== 'POST') {
          res.writeHead(404).end();
          return;
        }
        const status = device.answers.shift() ?? 201;
        try {
          if (req.headers['content-encoding'] !== 'aes128gcm') throw new Error(`Content-Encoding ${req.headers['content-encoding']}`);
          const vapid = checkVapid(req.headers, this.origin);
          const payload: unknown = JSON.parse(decryptPush(Buffer.concat(chunks), device.keys));
          device.received.push({
            payload,
            ttl: req.headers.ttl as string | undefined,
            urgency: req.headers.urgency as string | undefined,
            ...vapid,
            status,
          });
          setTimeout(() => res.writeHead(status).end(), this.delayMs);
        } catch (error) {
          this.errors.push(error instanceof Error ? error.message : String(error));
          res.writeHead(400).end();
        }
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as AddressInfo;
    this.origin = `http://127.0.0.1:${port}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** A new browser: its keys made here, as the browser makes them; only the public half leaves it. */
  device(): TestDevice {
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    const auth = randomBytes(16);
    const path = `/push/${randomUUID()}`;
    const endpoint = `${this.origin}${path}`;
    const device = {
      endpoint,
      subscription: { endpoint, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') } },
      received: [],
      answers: [],
      keys: { ecdh, auth },
    };
    this.devices.set(path, device);
    return device;
  }

  /** Every push any device received with a 2xx answer. */
  delivered(): ReceivedPush[] {
    return [...this.devices.values()].flatMap((d) => d.received.filter((r) => r.status < 300));
  }
}
