import { createDecipheriv, createECDH, hkdfSync, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One subscription Chromium asked the push service for: the site's VAPID key among the fields. */
export interface PushRegistration {
  /** The site's applicationServerKey (base64url), as Chromium sends it. */
  sender: string;
  /** Chromium's name for the site's registration (wp:<origin>#<id>). */
  subtype: string;
  /** The token answered: the end of the subscription's endpoint. */
  token: string;
}

export interface LocalPushService {
  /** Chromium's flags that send its push-service calls here instead of Google's. */
  chromiumArgs: string[];
  registrations: PushRegistration[];
  /**
   * A second device of the driver, made here (its keys never leave the test): what the server sends
   * it, decrypted as a browser does, is the payload the journey hands to Chromium's worker.
   */
  relay: { subscription: { endpoint: string; keys: { p256dh: string; auth: string } }; received: string[] };
  close(): Promise<void>;
}

/** A protobuf fixed64 field. */
function fixed64(field: number, value: bigint): Buffer {
  const bytes = Buffer.alloc(9);
  bytes[0] = (field << 3) | 1;
  bytes.writeBigUInt64LE(value, 1);
  return bytes;
}

/** RFC 8291 (aes128gcm, one record): the server's key in the header, ECDH and HKDF over the auth secret. */
function decrypt(body: Buffer, device: ReturnType<typeof createECDH>, auth: Buffer): string {
  const salt = body.subarray(0, 16);
  const idLength = body.readUInt8(20);
  const serverKey = body.subarray(21, 21 + idLength);
  const record = body.subarray(21 + idLength);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), device.getPublicKey(), serverKey]);
  const ikm = Buffer.from(hkdfSync('sha256', device.computeSecret(serverKey), auth, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 2, then zeros.
  return padded.subarray(0, padded.lastIndexOf(2)).toString('utf8');
}

/**
 * Chromium's push service is Google's GCM: before a site can subscribe it checks the browser in
 * (POST /checkin, protobuf) and registers the subscription (POST /register, a form), and the
 * machine running the journeys has no internet. Chromium takes the addresses of both from its
 * command line (--gcm-checkin-url, --gcm-registration-url; the message channel, --gcm-mcs-endpoint,
 * points at a closed port): this server answers them as GCM does, so pushManager.subscribe gives a
 * real PushSubscription, with the browser's own P-256 keys and auth secret. Messages are not
 * delivered through it: the journeys hand them to the service worker through the DevTools protocol.
 */
export async function startLocalPushService(): Promise<LocalPushService> {
  const registrations: PushRegistration[] = [];
  const relayKeys = createECDH('prime256v1');
  relayKeys.generateKeys();
  const relayAuth = randomBytes(16);
  const received: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (req.method === 'POST' && req.url === '/relay') {
        received.push(decrypt(body, relayKeys, relayAuth));
        res.writeHead(201).end();
        return;
      }
      if (req.method === 'POST' && req.url?.startsWith('/checkin')) {
        // AndroidCheckinResponse: stats_ok = true, android_id, security_token, settings_diff = false.
        const answer = Buffer.concat([
          Buffer.from([0x08, 0x01]),
          fixed64(7, 4_242_424_242n),
          fixed64(8, 7_777_777_777n),
          Buffer.from([0x48, 0x00]),
        ]);
        res.writeHead(200, { 'Content-Type': 'application/x-protobuf' }).end(answer);
        return;
      }
      if (req.method === 'POST' && req.url?.startsWith('/register')) {
        const form = new URLSearchParams(body.toString('utf8'));
        const token = `e2e-${String(registrations.length + 1)}-${form.get('appid') ?? 'app'}`;
        registrations.push({ sender: form.get('sender') ?? '', subtype: form.get('X-subtype') ?? '', token });
        res.writeHead(200, { 'Content-Type': 'text/plain' }).end(`token=${token}`);
        return;
      }
      res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
  return {
    chromiumArgs: [`--gcm-checkin-url=${url}/checkin`, `--gcm-registration-url=${url}/register`, '--gcm-mcs-endpoint=https://127.0.0.1:9'],
    registrations,
    relay: {
      subscription: {
        endpoint: `${url}/relay`,
        keys: { p256dh: relayKeys.getPublicKey().toString('base64url'), auth: relayAuth.toString('base64url') },
      },
      received,
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
