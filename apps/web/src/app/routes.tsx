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
export interface PreloadedScreens {
  LoginPage?: ComponentType;
}

const loginRoute = ({ LoginPage }: PreloadedScreens): RouteObject =>
  LoginPage
    ? { path: 'login', Component: LoginPage }
    : { path: 'login', lazy: () => import('../features/auth/LoginPage').then((m) => ({ Component: m.LoginPage })) };

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
      {
        path: 'registrar',
        lazy: () => import('../features/auth/RegisterPage').then((m) => ({ Component: m.RegisterPage })),
      },
      {
        path: 'blocked-access',
        lazy: () => import('../features/terms/BlockedAccessPage').then((m) => ({ Component: m.BlockedAccessPage })),
      },
      {
        Component: RequireAuth,
        children: [
          {
            lazy: () => import('./AuthenticatedShell').then((m) => ({ Component: m.AuthenticatedShell })),
            children: [
              {
                path: 'dashboard',
                lazy: () => import('./routes/DashboardRoute').then((m) => ({ Component: m.DashboardRoute })),
              },
              {
                path: 'saldo/retirar',
                handle: { title: 'Sacar Saldo' },
                lazy: () => import('../features/withdrawal/WithdrawPage').then((m) => ({ Component: m.WithdrawPage })),
              },
              {
                path: 'saldo/comprar',
                handle: { title: 'Comprar Saldo' },
                lazy: () => import('../features/credit/BuyBalancePage').then((m) => ({ Component: m.BuyBalancePage })),
              },
              { path: 'tags/listar', handle: { title: 'Tags' }, lazy: () => import('../features/tags/TagsListPage').then((m) => ({ Component: m.TagsListPage })) },
              { path: 'tags/adicionar', handle: { title: 'Cadastrar Tag' }, lazy: () => import('../features/tags/TagRegisterPage').then((m) => ({ Component: m.TagRegisterPage })) },
              { path: 'tags/detalhes/:licensePlate', handle: { title: 'Detalhes da Tag' }, lazy: () => import('../features/tags/TagDetailPage').then((m) => ({ Component: m.TagDetailPage })) },
              { path: 'tags/editar/:licensePlate', handle: { title: 'Editar Tag' }, lazy: () => import('../features/tags/TagEditPage').then((m) => ({ Component: m.TagEditPage })) },
              { path: 'veiculos/listar', handle: { title: 'Veículos' }, lazy: () => import('../features/vehicles/VehiclesListPage').then((m) => ({ Component: m.VehiclesListPage })) },
              { path: 'vpos/listar', handle: { title: 'VPOs' }, lazy: () => import('../features/vpos/VposListPage').then((m) => ({ Component: m.VposListPage })) },
              {
                path: 'extrato/listar',
                handle: { title: 'Extrato' },
                lazy: () => import('../features/statement/StatementPage').then((m) => ({ Component: m.StatementPage })),
              },
            ],
          },
        ],
      },
      { path: '*', lazy: () => import('./NotFoundPage').then((m) => ({ Component: m.NotFoundPage })) },
    ],
  },
];

export const routes = createRoutes();
