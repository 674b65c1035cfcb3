import type { ComponentType } from 'react';
import { Navigate, type RouteObject } from 'react-router';
import { PageLoader } from '../components/ui/PageLoader';
import { RequireAuth } from './RequireAuth';
import { RootLayout } from './RootLayout';
import { RouteError } from './RouteError';

/**
 * Screens whose code is already loaded when the router starts. A page prerendered at build time
 * (/login) must render on the first pass, not after a lazy hop, or hydration would find the
 * HydrateFallback instead of the markup.
 */
interface PreloadedScreens {
  LoginPage?: ComponentType;
}

/** A screen whose code downloads when its route is first opened (`load` picks the page from its module). */
const lazyScreen = (path: string, load: () => Promise<ComponentType>): RouteObject => ({
  path,
  lazy: () => load().then((Component) => ({ Component })),
});

const loginRoute = ({ LoginPage }: PreloadedScreens): RouteObject =>
  LoginPage
    ? { path: 'login', Component: LoginPage }
    : lazyScreen('login', () => import('../features/auth/LoginPage').then((m) => m.LoginPage));

/** SPEC 2's route table. Every screen is its own lazy chunk; /login loads only its own code. */
export const createRoutes = (preloaded: PreloadedScreens = {}): RouteObject[] => [
  {
    id: 'root',
    Component: RootLayout,
    HydrateFallback: PageLoader,
    ErrorBoundary: RouteError,
    children: [
      { index: true, element: <Navigate to="/login" replace /> },
      loginRoute(preloaded),
      lazyScreen('registrar', () => import('../features/auth/RegisterPage').then((m) => m.RegisterPage)),
      lazyScreen('blocked-access', () => import('../features/terms/BlockedAccessPage').then((m) => m.BlockedAccessPage)),
      {
        Component: RequireAuth,
        children: [
          {
            lazy: () => import('./AuthenticatedShell').then((m) => ({ Component: m.AuthenticatedShell })),
            children: [
              lazyScreen('dashboard', () => import('./routes/DashboardRoute').then((m) => m.DashboardRoute)),
              lazyScreen('saldo/retirar', () => import('../features/withdrawal/WithdrawPage').then((m) => m.WithdrawPage)),
              lazyScreen('saldo/comprar', () => import('../features/credit/BuyBalancePage').then((m) => m.BuyBalancePage)),
              lazyScreen('tags/listar', () => import('../features/tags/TagsListPage').then((m) => m.TagsListPage)),
              lazyScreen('tags/adicionar', () => import('../features/tags/TagRegisterPage').then((m) => m.TagRegisterPage)),
              lazyScreen('tags/detalhes/:licensePlate', () => import('../features/tags/TagDetailPage').then((m) => m.TagDetailPage)),
              lazyScreen('tags/editar/:licensePlate', () => import('../features/tags/TagEditPage').then((m) => m.TagEditPage)),
              lazyScreen('veiculos/listar', () => import('../features/vehicles/VehiclesListPage').then((m) => m.VehiclesListPage)),
              lazyScreen('vpos/listar', () => import('../features/vpos/VposListPage').then((m) => m.VposListPage)),
              lazyScreen('extrato/listar', () => import('../features/statement/StatementPage').then((m) => m.StatementPage)),
              lazyScreen('comprovantes/:tipo/:id', () => import('../features/receipts/ReceiptPage').then((m) => m.ReceiptPage)),
              lazyScreen('configuracoes', () => import('../features/settings/SettingsPage').then((m) => m.SettingsPage)),
            ],
          },
        ],
      },
      lazyScreen('*', () => import('./NotFoundPage').then((m) => m.NotFoundPage)),
    ],
  },
];

export const routes = createRoutes();
