import { api } from '@portal/contract';
import { centsToReais, messages, reaisToCents, serverMessages } from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import { driverRoute } from '../../http/route.js';
import type { SettingsService } from './service.js';

/** GET and POST /api/motorista/preferencias: the balance alert level (issue 12). */
export function settingsRoutes(app: FastifyInstance, settings: SettingsService): void {
  driverRoute(app, api.settings, async ({ driver }) => ({
    Sucesso: true,
    Mensagem: serverMessages.settings.ok,
    Preferencias: { nivelAlertaSaldo: centsToReais(await settings.alertCents(driver.id)) },
  }));

  driverRoute(app, api.updateSettings, async ({ driver, body }) => {
    const cents = reaisToCents(body.nivelAlertaSaldo);
    await settings.saveAlertCents(driver.id, cents);
    return { Sucesso: true, Mensagem: messages.settings.saved, Preferencias: { nivelAlertaSaldo: centsToReais(cents) } };
  });
}
