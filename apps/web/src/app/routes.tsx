import type { ComponentType } from 'react';
import { Navigate, type RouteObject } from 'react-router';
import { PageLoader } from '../components/ui/PageLoader';
import { RequireAuth } from './RequireAuth';
import { RootLayout } from './RootLayout';
import { RouteError } from './RouteError';

/**
 * Where each screen's code comes from, by route path ('shell' is the signed-in frame around the
 * screens). The router loads them lazily; a page prerendered at build time (early-paint/) loads
 * its own before hydrating, and the build preloads them with the page, reading each loader's
 * import() here (early-paint/build/screenModules.ts): this is the one place a screen's module is named.
 */
export const screenLoaders = {
  login: () => import('../features/auth/LoginPage').then((m) => m.LoginPage),
  registrar: () => import('../features/auth/RegisterPage').then((m) => m.RegisterPage),
  'blocked-access': () => import('../features/terms/BlockedAccessPage').then((m) => m.BlockedAccessPage),
  // Decision 72: the privacy notice, public (linked from the login, the registration and Configurações).
  privacidade: () => import('../features/privacy/PrivacyPage').then((m) => m.PrivacyPage),
  // Decision 76: a proof for an appeal checked by its code, public (a traffic authority reads its QR Code).
  'verificar/:codigo': () => import('../features/free-flow/VerifyProofPage').then((m) => m.VerifyProofPage),
  shell: () => import('./AuthenticatedShell').then((m) => m.AuthenticatedShell),
  dashboard: () => import('./routes/DashboardRoute').then((m) => m.DashboardRoute),
  'saldo/retirar': () => import('../features/withdrawal/WithdrawPage').then((m) => m.WithdrawPage),
  'saldo/comprar': () => import('../features/credit/BuyBalancePage').then((m) => m.BuyBalancePage),
  'saldo/recarga-automatica': () => import('../features/pix-automatic/PixAutomaticPage').then((m) => m.PixAutomaticPage),
  'tags/listar': () => import('../features/tags/TagsListPage').then((m) => m.TagsListPage),
  'tags/adicionar': () => import('../features/tags/TagRegisterPage').then((m) => m.TagRegisterPage),
  'tags/detalhes/:licensePlate': () => import('../features/tags/TagDetailPage').then((m) => m.TagDetailPage),
  'tags/editar/:licensePlate': () => import('../features/tags/TagEditPage').then((m) => m.TagEditPage),
  'veiculos/listar': () => import('../features/vehicles/VehiclesListPage').then((m) => m.VehiclesListPage),
  // Decision 77: the passages of the vehicles a Motorista drives (linked from their dashboard).
  'veiculos/passagens': () => import('../features/vehicles/PassagesPage').then((m) => m.PassagesPage),
  'vpos/listar': () => import('../features/vpos/VposListPage').then((m) => m.VposListPage),
  'extrato/listar': () => import('../features/statement/StatementPage').then((m) => m.StatementPage),
  contestacoes: () => import('../features/contests/ContestsPage').then((m) => m.ContestsPage),
  // Decision 76: the free-flow tolls ('pedágio sem cancela') of the driver's plates.
  'livre-passagem': () => import('../features/free-flow/FreeFlowPage').then((m) => m.FreeFlowPage),
  'comprovantes/:tipo/:id': () => import('../features/receipts/ReceiptPage').then((m) => m.ReceiptPage),
  configuracoes: () => import('../features/settings/SettingsPage').then((m) => m.SettingsPage),
  // Decision 77: a company's pages, for its Gestores (the members, who drives which vehicle, the trail,
  // the dual control of withdrawals) and, the cost centres, its Financeiros too.
  'empresa/membros': () => import('../features/fleet/MembersPage').then((m) => m.MembersPage),
  'empresa/veiculos': () => import('../features/fleet/FleetVehiclesPage').then((m) => m.FleetVehiclesPage),
  'empresa/auditoria': () => import('../features/fleet/AuditPage').then((m) => m.AuditPage),
  'empresa/centros-de-custo': () => import('../features/fleet/CostCentresPage').then((m) => m.CostCentresPage),
  'empresa/dupla-aprovacao': () => import('../features/fleet/DualControlPage').then((m) => m.DualControlPage),
  'empresa/orcamentos': () => import('../features/fleet/BudgetsPage').then((m) => m.BudgetsPage),
  '*': () => import('./NotFoundPage').then((m) => m.NotFoundPage),
} satisfies Record<string, () => Promise<ComponentType>>;

export type ScreenKey = keyof typeof screenLoaders;

/**
 * Screens whose code is already loaded when the router starts. A page prerendered at build time
 * must render on the first pass, not after a lazy hop, or hydration would find the
 * HydrateFallback instead of the markup.
 */
export type PreloadedScreens = Partial<Record<ScreenKey, ComponentType>>;

/** The code of these screens, loaded in parallel (a prerendered page modulepreloads it all). */
export async function loadScreens(keys: readonly ScreenKey[]): Promise<PreloadedScreens> {
  const loaded = await Promise.all(keys.map(async (key) => [key, await screenLoaders[key]()] as const));
  return Object.fromEntries(loaded);
}

/** A screen's component: already loaded, or downloaded when its route is first opened. */
const component = (preloaded: PreloadedScreens, key: ScreenKey): Pick<RouteObject, 'Component' | 'lazy'> => {
  const Component = preloaded[key];
  if (Component) return { Component };
  const load = screenLoaders[key];
  return { lazy: () => load().then((C: ComponentType) => ({ Component: C })) };
};

const screen = (preloaded: PreloadedScreens, path: Exclude<ScreenKey, 'shell'>): RouteObject => ({ path, ...component(preloaded, path) });

/** spec §2's route table. Every screen is its own lazy chunk; /login loads only its own code. */
export const createRoutes = (preloaded: PreloadedScreens = {}): RouteObject[] => [
  {
    id: 'root',
    Component: RootLayout,
    HydrateFallback: PageLoader,
    ErrorBoundary: RouteError,
    children: [
      { index: true, element: <Navigate to="/login" replace /> },
      screen(preloaded, 'login'),
      screen(preloaded, 'registrar'),
      screen(preloaded, 'blocked-access'),
      screen(preloaded, 'privacidade'),
      screen(preloaded, 'verificar/:codigo'),
      {
        Component: RequireAuth,
        children: [
          {
            ...component(preloaded, 'shell'),
            children: [
              screen(preloaded, 'dashboard'),
              screen(preloaded, 'saldo/retirar'),
              screen(preloaded, 'saldo/comprar'),
              screen(preloaded, 'saldo/recarga-automatica'),
              screen(preloaded, 'tags/listar'),
              screen(preloaded, 'tags/adicionar'),
              screen(preloaded, 'tags/detalhes/:licensePlate'),
              screen(preloaded, 'tags/editar/:licensePlate'),
              screen(preloaded, 'veiculos/listar'),
              screen(preloaded, 'veiculos/passagens'),
              screen(preloaded, 'vpos/listar'),
              screen(preloaded, 'extrato/listar'),
              screen(preloaded, 'contestacoes'),
              screen(preloaded, 'livre-passagem'),
              screen(preloaded, 'comprovantes/:tipo/:id'),
              screen(preloaded, 'configuracoes'),
              screen(preloaded, 'empresa/membros'),
              screen(preloaded, 'empresa/veiculos'),
              screen(preloaded, 'empresa/auditoria'),
              screen(preloaded, 'empresa/centros-de-custo'),
              screen(preloaded, 'empresa/dupla-aprovacao'),
              screen(preloaded, 'empresa/orcamentos'),
            ],
          },
        ],
      },
      screen(preloaded, '*'),
    ],
  },
];

export const routes = createRoutes();
