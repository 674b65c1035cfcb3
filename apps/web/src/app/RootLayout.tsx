import { Outlet, useNavigation } from 'react-router';

/** Every route: a thin progress bar while the next screen's code or data loads. */
export function RootLayout() {
  const navigation = useNavigation();
  return (
    <>
      {navigation.state !== 'idle' ? <div className="route-progress" role="progressbar" aria-label="Carregando" /> : null}
      <Outlet />
    </>
  );
}
