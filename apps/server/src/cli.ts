import { checkSaoPauloZoneDataAround } from '@portal/domain';
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig } from './config.js';
import type { Config } from './config.js';
import { dialectOf, openDb, sqlitePath } from './db/connection.js';
import type { Db } from './db/connection.js';
import { migrateToLatest } from './db/migrate.js';
import { InvalidPdfError, TermsService } from './modules/terms/service.js';
import { backupDatabase, restoreDatabase } from './cli/db.js';
import { describeMonths, restoreMonth } from './cli/months.js';
import { CliFailure, payNewestDemoCharge, simulatePixEvent } from './cli/pix.js';
import { applyContradiction, listWebhookEvents, reconcilePix, resolveWebhookEvent } from './cli/pix-ops.js';
import { activateAutomatic, cancelAutomaticAtBank, refuseAutomaticCycle, runAutomaticCycle } from './cli/pix-automatic.js';
import {
  createPartner,
  issueVpo,
  showVpo,
  listPartners,
  recordPassage,
  recordThirdParty,
  revokePartner,
  scopePartner,
  updateVpo,
} from './cli/partners.js';
import { resolveWithdrawal } from './cli/withdrawal.js';
import { createPixProvider } from './adapters/pix/index.js';
import { answerContest, listContests } from './cli/contests.js';
import { createLogger } from './logger.js';
import { cliServerUrl } from './server-address.js';
import { createServices } from './services.js';
import type { RetentionReport } from './modules/retention/service.js';

interface Command {
  usage: string;
  description: string;
  run: (args: string[], ctx: { config: Config; withDb: <T>(fn: (db: Db) => Promise<T>) => Promise<T> }) => Promise<void>;
}

const commands: Record<string, Command> = {
  help: {
    usage: 'help',
    description: 'Lista os comandos disponíveis',
    run: async () => printHelp(),
  },
  migrate: {
    usage: 'migrate',
    description: 'Aplica as migrações pendentes no banco (DATABASE_URL)',
    run: async (_args, { withDb }) => {
      const applied = await withDb(migrateToLatest);
      console.log(applied.length ? `Migrações aplicadas: ${applied.join(', ')}` : 'Banco já está atualizado.');
    },
  },
  'terms:publish': {
    usage: 'terms:publish <arquivo.pdf>',
    description: 'Publica uma nova versão dos Termos de Uso; todos os motoristas precisarão aceitá-la',
    run: async ([file], { config, withDb }) => {
      if (!file) throw new UsageError('Informe o arquivo PDF: terms:publish <arquivo.pdf>');
      // npm runs scripts from the package folder; INIT_CWD is where the operator typed the command.
      const full = path.resolve(process.env.INIT_CWD ?? process.cwd(), file);
      if (!fs.existsSync(full)) throw new UsageError(`Arquivo não encontrado: ${full}`);
      const term = await withDb(async (db) => {
        await migrateToLatest(db);
        return new TermsService(db.kysely).publish(fs.readFileSync(full));
      });
      const where = dialectOf(config.databaseUrl) === 'postgres' ? 'PostgreSQL' : sqlitePath(config.databaseUrl);
      console.log(`Termos de Uso versão ${term.version} publicados (id ${term.id}) em ${where}.`);
    },
  },
  'terms:list': {
    usage: 'terms:list',
    description: 'Lista as versões publicadas dos Termos de Uso',
    run: async (_args, { withDb }) => {
      const rows = await withDb(async (db) => {
        await migrateToLatest(db);
        return db.kysely.selectFrom('terms').select(['id', 'version', 'published_at', 'sha256']).orderBy('version').execute();
      });
      if (rows.length === 0) console.log('Nenhum termo publicado.');
      for (const r of rows) console.log(`v${r.version}  id=${r.id}  ${new Date(r.published_at).toISOString()}  sha256=${r.sha256}`);
    },
  },
  'db:backup': {
    usage: 'db:backup <arquivo>',
    description: 'Cópia de segurança do banco com os servidores no ar (SQLite: backup online; PostgreSQL: pg_dump)',
    run: async ([file], { config }) => {
      if (!file) throw new UsageError('Informe o arquivo da cópia: db:backup <arquivo>');
      console.log(await backupDatabase({ databaseUrl: config.databaseUrl, file: operatorPath(file) }));
    },
  },
  'db:restore': {
    usage: 'db:restore <arquivo> --force',
    description: 'Substitui o conteúdo do banco pela cópia (pare antes todos os servidores; o SQLite atual é guardado ao lado)',
    run: async (args, { config }) => {
      const file = args.find((a) => !a.startsWith('--'));
      if (!file) throw new UsageError('Informe o arquivo da cópia: db:restore <arquivo> --force');
      console.log(await restoreDatabase({ databaseUrl: config.databaseUrl, file: operatorPath(file), force: args.includes('--force') }));
    },
  },
  'pix:pay': {
    usage: 'pix:pay [id da cobrança]',
    description:
      'Simula o pagamento de um Pix do provedor local (webhook para o servidor em execução); sem id, paga a cobrança aguardando mais recente do motorista de demonstração',
    run: async ([id], { config, withDb }) => {
      console.log(await withDb((db) => (id ? simulatePixEvent(config, db, id, 'PAYMENT_RECEIVED') : payNewestDemoCharge(config, db))));
    },
  },
  'pix:expire': {
    usage: 'pix:expire <id da cobrança>',
    description: 'Simula o vencimento de um Pix do provedor local (PAYMENT_OVERDUE)',
    run: async ([id], { config, withDb }) => {
      console.log(await withDb((db) => simulatePixEvent(config, db, id, 'PAYMENT_OVERDUE')));
    },
  },
  'pix:events': {
    usage: 'pix:events',
    description: 'Lista os eventos do Asaas aceitos (HTTP 200) mas não aplicados, para análise do operador',
    run: async (_args, { withDb }) => console.log(await withDb(migrated(listWebhookEvents))),
  },
  'pix:events:resolve': {
    usage: 'pix:events:resolve <id> [nota]',
    description: 'Marca como resolvido um evento do Asaas listado por pix:events',
    run: async (args, { withDb }) => console.log(await withDb(migrated((db) => resolveWebhookEvent(db, args)))),
  },
  'pix:reconcile': {
    usage: 'pix:reconcile',
    description: 'Consulta o provedor sobre cobranças pendentes e saques em processamento e aplica o que ele informar',
    run: async (_args, { config, withDb }) =>
      console.log(await withDb(migrated((db) => reconcilePix(config, db, createLogger(config.logLevel))))),
  },
  'pix:auto:activate': {
    usage: 'pix:auto:activate --driver <CPF/CNPJ ou id>',
    description:
      'Simula o banco do motorista (provedor local): paga o primeiro Pix do QR Code da recarga automática aguardando autorização e ativa o Pix Automático',
    run: async (args, { config, withDb }) => console.log(await withDb(migrated((db) => activateAutomatic(config, db, args)))),
  },
  'pix:auto:cycle': {
    usage: 'pix:auto:cycle --driver <CPF/CNPJ ou id>',
    description:
      'Simula o banco (provedor local): debita o próximo ciclo da recarga automática ativa (o já agendado, ou um novo com débito hoje), que entra como saldo',
    run: async (args, { config, withDb }) => console.log(await withDb(migrated((db) => runAutomaticCycle(config, db, args)))),
  },
  'pix:auto:refuse': {
    usage: 'pix:auto:refuse --driver <CPF/CNPJ ou id> [--motivo "<texto do banco>"]',
    description:
      'Simula o banco (provedor local): recusa o débito do próximo ciclo da recarga automática; nada entra no saldo e o motorista é avisado',
    run: async (args, { config, withDb }) => console.log(await withDb(migrated((db) => refuseAutomaticCycle(config, db, args)))),
  },
  'pix:auto:cancel': {
    usage: 'pix:auto:cancel --driver <CPF/CNPJ ou id>',
    description: 'Simula o cancelamento da recarga automática pelo motorista no app do banco (provedor local)',
    run: async (args, { config, withDb }) => console.log(await withDb(migrated((db) => cancelAutomaticAtBank(config, db, args)))),
  },
  'billing:run': {
    usage: 'billing:run [AAAA-MM]',
    description: 'Cobra a mensalidade do mês de cada tag ativa (uma vez por tag e mês; saldo curto bloqueia com 204)',
    run: async ([month], { config, withDb }) => {
      const at = month === undefined ? new Date() : monthStart(month);
      const report = await withDb(migrated((db) => createServices(config, db, createLogger('warn')).billing.run(at)));
      if (report.runningElsewhere) {
        console.log(`A cobrança de ${report.period} já está em andamento em outra instância; nada foi feito agora.`);
        return;
      }
      console.log(
        `Mensalidades de ${report.period}: ${report.charged} cobrada(s), ${report.blocked} tag(s) bloqueada(s) por saldo insuficiente, ${report.skipped} já paga(s) ou ignorada(s).`,
      );
    },
  },
  'retention:run': {
    usage: 'retention:run',
    description:
      'Apaga ou anonimiza agora o que passou do prazo de guarda (RETENTION_*: registros de acesso, sessões, chaves de idempotência, limites, notificações, eventos do Asaas resolvidos, contas encerradas); no PostgreSQL cria os meses à frente e arquiva os meses de lançamentos e passagens além de RETENTION_LEDGER_YEARS; os servidores também o fazem todo dia',
    run: async (_args, { config, withDb }) => {
      const report = await withDb(migrated((db) => createServices(config, db, createLogger('warn')).retention.run()));
      console.log(retentionSummary(report));
    },
  },
  'db:months': {
    usage: 'db:months',
    description:
      'Lista os meses dos lançamentos e das passagens no PostgreSQL (decisão 80): os no banco, com suas linhas, e os arquivados, com arquivo e SHA-256',
    run: async (_args, { withDb }) => console.log(await withDb(migrated(describeMonths))),
  },
  'db:months:restore': {
    usage: 'db:months:restore <arquivo.csv.gz>',
    description:
      'Devolve ao banco um mês arquivado pela retenção (confere o SHA-256 do arquivo .sha256 ao lado; recusa se o mês já estiver no banco)',
    run: async ([file], { withDb }) => {
      if (!file) throw new UsageError('Informe o arquivo do mês: db:months:restore <arquivo.csv.gz>');
      console.log(await withDb(migrated((db) => restoreMonth(db, operatorPath(file)))));
    },
  },
  'encerramento:tags': {
    usage: 'encerramento:tags',
    description:
      'Tenta de novo cancelar na operadora as tags de contas encerradas que a operadora recusou ou não respondeu no encerramento (decisão 70)',
    run: async (_args, { config, withDb }) => {
      const { cancelled, pending } = await withDb(
        migrated((db) => createServices(config, db, createLogger(config.logLevel)).accountClosure.retryTagCancellations()),
      );
      console.log(`Tags de contas encerradas: ${cancelled} cancelada(s) agora na operadora, ${pending} ainda pendente(s).`);
      if (pending > 0) process.exitCode = 1;
    },
  },
  'withdrawal:resolve': {
    usage: 'withdrawal:resolve <id> done|failed [motivo]',
    description:
      'Conclui um saque em processamento cujo resultado o provedor não informou (failed devolve o valor; recusado enquanto o Asaas tiver a transferência pendente ou concluída)',
    run: async (args, { config, withDb }) => {
      console.log(await withDb((db) => resolveWithdrawal(db, createLogger(config.logLevel), args, createPixProvider(config.pix))));
    },
  },
  'pix:contradiction:apply': {
    usage: 'pix:contradiction:apply <id do saque ou da cobrança>',
    description:
      'Aplica ao saldo, uma única vez, o que o Asaas diz de um saque ou cobrança já encerrados que ele contradiz (listados por pix:events e pix:reconcile)',
    run: async (args, { config, withDb }) =>
      console.log(await withDb(migrated((db) => applyContradiction(config, db, createLogger(config.logLevel), args)))),
  },
  'partner:create': {
    usage: 'partner:create --kind shipper|operator|platform|concessionaria --name <nome> [--operator <nome ou CNPJ>]',
    description:
      'Cria um parceiro e mostra sua chave de API uma única vez, sozinha na última linha; uma operadora (--kind operator) exige --operator e só lança passagens das tags dessa operadora; uma concessionária (--kind concessionaria) envia pedágios sem cancela por placa',
    run: async (args, { withDb }) => console.log(await withDb(migrated((db) => createPartner(db, args)))),
  },
  'partner:list': {
    usage: 'partner:list',
    description: 'Lista os parceiros: id, tipo, início da chave, situação, nome e a operadora das chaves de operadora',
    run: async (_args, { withDb }) => console.log(await withDb(migrated(listPartners))),
  },
  'partner:scope': {
    usage: 'partner:scope <id> --operator <nome ou CNPJ>',
    description: 'Vincula a uma operadora uma chave de operadora criada sem --operator (até lá ela recebe 403)',
    run: async (args, { withDb }) => console.log(await withDb(migrated((db) => scopePartner(db, args)))),
  },
  'partner:revoke': {
    usage: 'partner:revoke <id>',
    description: 'Revoga a chave de API de um parceiro (passa a receber 401)',
    run: async (args, { withDb }) => console.log(await withDb(migrated((db) => revokePartner(db, args)))),
  },
  'vpo:issue': {
    usage:
      'vpo:issue --partner <id> --externalId <id> --serial <tag> --plate <placa> --shipper <cpf/cnpj> --value <reais> [--origem O] [--destino D] [--inicio ISO] [--fim ISO] [--antt <id ANTT>] [--rntrc <RNTRC>] [--eixos N]',
    description:
      'Registra um VPO (status EMITIDO) de um embarcador para a tag e a placa do seu veículo e guarda o valor para as passagens da viagem (o mesmo que POST /api/parceiro/vpos)',
    run: async (args, { withDb }) => console.log(await withDb(migrated((db) => issueVpo(db, args)))),
  },
  'vpo:show': {
    usage: 'vpo:show --partner <id> --externalId <id>',
    description:
      'Mostra um VPO do embarcador: status, valor, utilizado, restante, devolvido e as passagens pagas (o mesmo que GET /api/parceiro/vpos/:externalId)',
    run: async (args, { withDb }) => console.log(await withDb(migrated((db) => showVpo(db, args)))),
  },
  'vpo:status': {
    usage: 'vpo:status --partner <id> --externalId <id> --status EM_VIAGEM|ENCERRADO|CANCELADO',
    description:
      'Muda o status de um VPO do embarcador: EMITIDO -> EM_VIAGEM -> ENCERRADO, EMITIDO ou EM_VIAGEM -> CANCELADO (o mesmo que PATCH /api/parceiro/vpos/:externalId)',
    run: async (args, { withDb }) => console.log(await withDb(migrated((db) => updateVpo(db, args)))),
  },
  'passage:record': {
    usage: 'passage:record --partner <id> --externalId <id> --serial <tag> --place <praça> --value <reais> [--at ISO] [--third]',
    description: 'Registra uma passagem de pedágio em uma tag ativa da operadora do parceiro (o mesmo que POST /api/parceiro/passagens)',
    run: async (args, { config, withDb }) =>
      console.log(await withDb(migrated((db) => recordPassage(db, args, config.duplicatePassageMinutes)))),
  },
  'contest:list': {
    usage:
      'contest:list [--atrasadas] [--partner <id>] [--estado ABERTA|ACEITA|RECUSADA] [--desde AAAA-MM-DD] [--ate AAAA-MM-DD] [--pagina N]',
    description:
      'Lista as contestações de passagens (todas, ou as da operadora do parceiro); --atrasadas: as em análise além do prazo de resposta, as mais antigas primeiro',
    run: async (args, { withDb }) => console.log(await withDb(migrated((db) => listContests(db, args)))),
  },
  'contest:answer': {
    usage:
      'contest:answer --partner <id> --id <contestação> --decisao ACEITA|RECUSADA [--valor <reais>] --motivo "<texto que o motorista lê>"',
    description:
      'Responde uma contestação em nome da operadora do parceiro; ACEITA devolve o valor uma só vez à conta que pagou a passagem (o mesmo que POST /api/parceiro/contestacoes/:id/resposta); ACEITA sem --valor devolve tudo o que a passagem cobrou',
    run: async (args, { withDb }) => console.log(await withDb(migrated((db) => answerContest(db, args)))),
  },
  'third-party:record': {
    usage:
      'third-party:record --partner <id> --externalId <id> --cpfCnpj <doc> --type credito|debito --value <reais> [--place P] [--at ISO]',
    description: 'Registra crédito ou débito de terceiro (o mesmo que POST /api/parceiro/terceiro/movimentos)',
    run: async (args, { withDb }) => console.log(await withDb(migrated((db) => recordThirdParty(db, args)))),
  },
};

/** What retention:run did, one line per kind. */
function retentionSummary(report: RetentionReport): string {
  if (report.runningElsewhere) return 'A retenção de dados já está em andamento em outra instância; nada foi feito agora.';
  return [
    'Retenção de dados concluída:',
    `  registros de acesso apagados: ${report.accessRecords}`,
    `  sessões encerradas ou expiradas apagadas: ${report.sessions}`,
    `  chaves de idempotência apagadas: ${report.idempotencyKeys}`,
    `  contadores de limite apagados: ${report.rateLimits}`,
    `  notificações push apagadas: ${report.pushOutbox}`,
    `  eventos do Asaas resolvidos apagados: ${report.webhookEvents}`,
    `  links de comprovante de encerramento vencidos: ${report.closureReceiptLinks}`,
    `  contas encerradas anonimizadas: ${report.closedAccounts}`,
    `  meses criados à frente (PostgreSQL): ${report.monthsCreated}`,
    `  meses arquivados (PostgreSQL, RETENTION_ARCHIVE_DIR): ${report.monthsArchived}`,
  ].join('\n');
}

/** Runs fn on a database migrated to the latest schema. */
function migrated<T>(fn: (db: Db) => Promise<T>): (db: Db) => Promise<T> {
  return async (db) => {
    await migrateToLatest(db);
    return fn(db);
  };
}

class UsageError extends Error {}

/** npm runs scripts from the package folder; INIT_CWD is where the operator typed the command. */
function operatorPath(file: string): string {
  return path.resolve(process.env.INIT_CWD ?? process.cwd(), file);
}

/** 'AAAA-MM' -> the middle of that month (no time-zone edge can move it to a neighbour). */
function monthStart(month: string): Date {
  if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(month)) throw new UsageError(`Mês inválido: ${month}. Use AAAA-MM, por exemplo 2026-07.`);
  return new Date(`${month}-15T12:00:00Z`);
}

function printHelp(): void {
  console.log('Uso: npm run cli -- <comando> [argumentos]\n\nComandos:');
  for (const c of Object.values(commands)) console.log(`  ${c.usage.padEnd(46)} ${c.description}`);
  console.log('\nO banco é o de DATABASE_URL (padrão: ./data/portal.sqlite).');
}

async function run(argv: string[]): Promise<number> {
  const [name = 'help', ...args] = argv;
  const command = commands[name];
  if (!command) {
    console.error(`Comando desconhecido: ${name}\n`);
    printHelp();
    return 2;
  }
  try {
    const loaded = loadConfig();
    const config = { ...loaded, serverUrl: cliServerUrl(loaded.serverUrl, loaded.databaseUrl, process.env) };
    const withDb = async <T>(fn: (db: Db) => Promise<T>): Promise<T> => {
      const db = openDb(config.databaseUrl);
      try {
        return await fn(db);
      } finally {
        await db.kysely.destroy();
      }
    };
    await command.run(args, { config, withDb });
    return 0;
  } catch (error) {
    if (error instanceof ConfigError || error instanceof UsageError || error instanceof InvalidPdfError || error instanceof CliFailure) {
      console.error(error.message);
      return 1;
    }
    throw error;
  }
}

// The dates it prints follow the zone's data as the server's do (the server's start says so in its log).
checkSaoPauloZoneDataAround();
process.exitCode = await run(process.argv.slice(2));
