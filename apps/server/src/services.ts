import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.js';
import type { Db } from './db/connection.js';
import { PasswordHasher } from './modules/auth/passwords.js';
import { AuthService } from './modules/auth/service.js';
import { SessionStore } from './modules/auth/sessions.js';
import { LoginThrottle } from './modules/auth/throttle.js';
import { TermsService } from './modules/terms/service.js';

export interface Services {
  sessions: SessionStore;
  auth: AuthService;
  terms: TermsService;
}

/** Wires the services over one database; used by the HTTP app, the start-up seed and the CLI. */
export function createServices(config: Config, db: Db, log: FastifyBaseLogger): Services {
  const sessions = new SessionStore(db.kysely, config.sessionTtlHours);
  const throttle = new LoginThrottle(db.kysely, config.login);
  const auth = new AuthService(db.kysely, sessions, new PasswordHasher(config.argon2), throttle, log);
  return { sessions, auth, terms: new TermsService(db.kysely) };
}
