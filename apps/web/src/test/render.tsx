import { useEffect } from 'react';
import { act, render } from '@testing-library/react';
import { MemoryRouter, useLocation, useNavigate } from 'react-router';
import { AppProviders } from '../app/AppProviders';
import { AppRoutes } from '../app/AppRoutes';
import { resumeSession } from '../lib/session';
import { storage, type StoredSession } from '../lib/storage';

let navigate: ReturnType<typeof useNavigate> | null = null;

/** Shows the current path, so tests can see where the app went; keeps the app's navigate. */
function CurrentPath() {
  const appNavigate = useNavigate();
  useEffect(() => {
    navigate = appNavigate;
  }, [appNavigate]);
  const { pathname, search } = useLocation();
  return (
    <>
      <output data-testid="current-path">{pathname}</output>
      <output data-testid="current-search">{search}</output>
    </>
  );
}

/** The browser's Back button, in the app opened by renderApp. */
export async function goBack() {
  await act(async () => {
    await navigate?.(-1);
  });
}

/** The whole app (real routes, providers and lazy screens) opened at `path`. */
export function renderApp(path: string) {
  return render(
    <AppProviders>
      <MemoryRouter initialEntries={[path]}>
        <AppRoutes />
        <CurrentPath />
      </MemoryRouter>
    </AppProviders>,
  );
}

/** As if the user had signed in earlier (a token in storage, as after a reload). */
export function signedInAs(user: string, session: Partial<StoredSession> = {}) {
  storage.saveSession({ accessToken: 'token-1', user, stayLoggedIn: false, ...session });
  resumeSession();
}

/** Lets MUI's useMediaQuery see a screen `width` pixels wide (jsdom has no matchMedia). */
export function setScreenWidth(width: number) {
  window.matchMedia = (query: string) => {
    const min = /min-width:\s*([\d.]+)px/.exec(query);
    const max = /max-width:\s*([\d.]+)px/.exec(query);
    const matches = (!min || width >= Number(min[1])) && (!max || width <= Number(max[1]));
    return {
      matches,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    };
  };
}
