import { DashboardPage } from '../../features/dashboard/DashboardPage';
import { TermsBar } from '../../features/terms/TermsBar';
import { adoptEarlyBalance } from '../../early-paint/adoptEarlyBalance';

// Before the prerendered dashboard hydrates (main.tsx loads this module first): the balance its
// first script already painted (early-paint/scripts/boot.ts).
if (typeof document !== 'undefined') adoptEarlyBalance();

/** /dashboard: features do not import each other, so the route composes them. */
export function DashboardRoute() {
  return (
    <>
      <DashboardPage />
      <TermsBar />
    </>
  );
}
