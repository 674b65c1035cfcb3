import { Outlet, ScrollRestoration, useNavigation } from 'react-router';

/**
 * Every route: a thin progress bar while the next screen's code or data loads. Issue 25: a screen
 * opened from another starts at its top (the tag edit page opened 265 px down, its title and first
 * field hidden), back and forward return where the driver was (ScrollRestoration, no inline script
 * outside framework mode); a prerendered page is left where the driver scrolled it before the app
 * was live (createAppRouter's `prerendered`).
 */
export function RootLayout() {
  const navigation = useNavigation();
  return (
    <>
      {navigation.state !== 'idle' ? <div className="route-progress" role="progressbar" aria-label="Carregando" /> : null}
      <ScrollRestoration />
      <Outlet />
    </>
  );
}
