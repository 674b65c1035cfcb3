import { DashboardPage } from '../../features/dashboard/DashboardPage';
import { adoptEarlyBalance } from '../../early-paint/adoptEarlyBalance';

// Before the prerendered dashboard hydrates (main.tsx loads this module first): the balance its
// first script already painted (early-paint/scripts/boot.ts).
if (typeof document !== 'undefined') adoptEarlyBalance();

/** /dashboard. Its terms bar is the shell's now, at the top of every signed-in screen (issue 25). */
export function DashboardRoute() {
  return <DashboardPage />;
}
