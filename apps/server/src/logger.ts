import pino from 'pino';
import type { DestinationStream, Logger } from 'pino';

/** Fields that must never reach a log line, wherever they appear (bodies are never logged anyway). */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'password',
  'password_confirmation',
  'token',
  'Token',
  '*.password',
  '*.password_confirmation',
  '*.token',
  '*.Token',
];

export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = { level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } };
  return destination ? pino(options, destination) : pino(options);
}
