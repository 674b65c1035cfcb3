import { checkSaoPauloZoneDataAround, serverMessages } from '@portal/domain';
import { buildApp } from './app.js';
import { prepareDatabase } from './startup/bootstrap.js';
import { ConfigError, loadConfig } from './config.js';
import type { Config } from './config.js';
import { openDb } from './db/connection.js';
import { createLogger } from './logger.js';
import { forgetServerUrl, recordServerUrl, serverUrlOf, startLine } from './server-address.js';

/**
 * The configuration, or the process ends with code 1 and one Portuguese line per refused variable
 * (founding decision 28: in production, the development settings too: the repository's own tokens, the
 * local Pix provider without DEMONSTRATION=true, the demo driver, secrets below their minimum).
 */
function configOrExit(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

async function main(): Promise<void> {
  const config = configOrExit();
  const logger = createLogger(config.logLevel);
  if (config.demonstration) logger.warn(serverMessages.productionSettings.demonstrationStarted);
  // UTC−3 by arithmetic while the zone's data agrees over the days the portal shows; else the data.
  const summerTime = checkSaoPauloZoneDataAround();
  if (summerTime) {
    logger.warn(serverMessages.startup.summerTimeInZoneData.replace('{dia}', summerTime.toISOString().slice(0, 10)));
  }
  const db = openDb(config.databaseUrl, {
    poolMax: config.databasePoolMax,
    onPoolError: (err) => logger.warn({ err }, 'conexão ociosa com o PostgreSQL falhou'),
  });
  logger.info({ dialect: db.dialect, env: config.env }, 'banco de dados aberto');
  await prepareDatabase(config, db, logger);
  // Founding decision 13: the monthly tag fee, checked daily, one instance at a time; it lives as long as the app.
  // Decision 57: the push notifications' outbox, drained by one instance at a time, from ready to close.
  // Decision 58: each Pix Automático cycle is sent to the payer's bank days before its debit (checked hourly).
  // Decision 78: a tag whose vehicle reached its budget (where the company chose it) is blocked within 30 s.
  // Decision 71: what is past its retention period is deleted or anonymised (daily, one instance at a time).
  const app = await buildApp({
    config,
    db,
    logger,
    billingSchedule: {},
    pushDrain: {},
    cycleSchedule: {},
    retentionSchedule: {},
    freeFlowSchedule: {},
    budgetBlockSchedule: {},
  });

  let listeningUrl: string | null = null;
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'encerrando');
    const timer = setTimeout(() => {
      logger.error('encerramento excedeu o tempo limite; saindo à força');
      process.exit(1);
    }, config.shutdownTimeoutMs);
    timer.unref();
    app
      .close()
      .then(() => {
        if (listeningUrl) forgetServerUrl(config.databaseUrl, listeningUrl);
        return db.kysely.destroy();
      })
      .then(() => {
        logger.info('encerrado');
        process.exit(0);
      })
      .catch((error: unknown) => {
        logger.error({ err: error }, 'falha ao encerrar');
        process.exit(1);
      });
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  listeningUrl = serverUrlOf(config.host, port);
  recordServerUrl(config.databaseUrl, listeningUrl);
  logger.info(startLine(config.host, port));
}

main().catch((error: unknown) => {
  console.error('Falha ao iniciar o Portal do Motorista:', error);
  process.exit(1);
});
