import { DashboardPage } from '../../features/dashboard/DashboardPage';
import { TermsBar } from '../../features/terms/TermsBar';

/** /dashboard: features do not import each other, so the route composes them. */
export function DashboardRoute() {
  return (
    <>
      <DashboardPage />
      <TermsBar />
    </>
  );
}
