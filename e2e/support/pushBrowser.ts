import { chromium, type BrowserContext } from '@playwright/test';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromiumArgs, chromiumPath, viewports, type ViewportName } from '../chromium.js';
import { startLocalPushService, type LocalPushService } from './pushService.js';

/** A Chromium of a journey's own that can receive push, with its local push service. */
export interface PushBrowser {
  context: BrowserContext;
  pushService: LocalPushService;
  close(): Promise<void>;
}

/**
 * Chromium never offers push in an incognito profile (every context of the fixtures is one): a
 * browser with a profile on disk, its push-service calls sent to a local one (pushService.ts), the
 * notifications allowed for `baseURL`, at the width of `device`.
 */
export async function launchPushBrowser(baseURL: string, device: ViewportName): Promise<PushBrowser> {
  const pushService = await startLocalPushService();
  const profile = await mkdtemp(path.join(os.tmpdir(), 'portal-push-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    args: [...chromiumArgs, ...pushService.chromiumArgs],
    baseURL,
    locale: 'pt-BR',
    timezoneId: 'America/Sao_Paulo',
    viewport: viewports[device],
    ...(device === 'phone' ? { isMobile: true, hasTouch: true } : {}),
  });
  await context.grantPermissions(['notifications'], { origin: baseURL });
  return {
    context,
    pushService,
    close: async () => {
      await context.close();
      await pushService.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}
