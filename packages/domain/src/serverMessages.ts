/**
 * Answers only the server writes (its HTTP errors, rate limits, health, operations, the ledger's
 * refusals): the same catalogue as messages.ts, kept apart so that the web app, which never shows
 * them from here, does not ship them to every page (/login's budget, README).
 */
export const serverMessages = {
  limits: {
    tooManyRequests: 'Muitas requisições. Aguarde um pouco e tente novamente.',
  },
  balance: {
    ok: 'Saldo consultado com sucesso',
  },
  support: {
    greeting: 'Olá! Preciso de ajuda com o Portal do Motorista.',
  },
  web: {
    notBuilt:
      'A aplicação web ainda não foi compilada. Execute `npm run build` na raiz do projeto (ou `npm start`) e recarregue a página.',
  },
  ledger: {
    limitExceeded: 'Movimento recusado: o saldo ficaria fora do limite permitido',
  },
  http: {
    badRequest: 'Requisição inválida',
    badUrl: 'Endereço inválido',
    urlTooLong: 'Endereço longo demais',
    bodyTooLarge: 'Os dados enviados são grandes demais',
    unsupportedMediaType: 'Envie os dados em JSON (Content-Type: application/json)',
    timeout: 'A requisição demorou demais para chegar. Tente novamente.',
    headersTooLarge: 'Os cabeçalhos da requisição são grandes demais',
    closing: 'O serviço está reiniciando. Tente novamente em instantes.',
  },
  operations: {
    alive: 'Serviço no ar',
    ready: 'Pronto para atender',
    databaseDown: 'Banco de dados inacessível',
    migrationsPending: 'Migrações pendentes: {migrations}. Execute npm run cli -- migrate ou reinicie o servidor.',
    metricsUnauthorized: 'Token de métricas ausente ou inválido.',
  },
} as const;
