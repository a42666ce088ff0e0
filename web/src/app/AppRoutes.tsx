import { Suspense, lazy } from 'react';
import { Navigate, Route, Routes, useNavigate } from 'react-router';
import { getToken } from '../api/session';
import { peekEarlyPermission } from '../api/sys';
import { HOME_PAGE_COMPONENT, preloadPage } from './component-registry';
import { findMenuChain } from './console/menu-tree';
import { withTexts } from './i18n';
import { GuestOnly, RequireAuth } from './guards';
import { PageErrorBoundary } from './PageErrorBoundary';
import { PageLoading } from './PageLoading';
import { preloadable } from './preloadable';
import { HOME_PATH, LOGIN_PATH, NOT_FOUND_PATH } from '../shared/paths';

const LoginPage = lazy(() => import('../features/auth/LoginPage'));
const NotFoundPage = lazy(() => import('../features/exception/NotFoundPage'));
// Public account pages: chunks of their own, each with its texts, so none weighs on the login page.
const RegisterPage = lazy(() =>
  withTexts(['register'], import('../features/register/RegisterPage')),
);
const RegisterResultPage = lazy(() =>
  withTexts(['register'], import('../features/register/RegisterResultPage')),
);
const AlterationPage = lazy(() =>
  withTexts(['alteration'], import('../features/alteration/AlterationPage')),
);
const SsoCallbackPage = lazy(() => withTexts(['sso'], import('../features/sso/SsoCallbackPage')));

// The console (layout, menu, pages) is a separate chunk so the login page stays light.
const { Component: Console, load: loadConsole } = preloadable(() => import('./console/Console'));

/**
 * Once the user starts on the login form, the console and the home page load in the background
 * (both at once, no chunk waits for another), so the click on login lands on a console that is
 * ready instead of one that starts downloading. Once they are there and nobody has signed in yet,
 * the console's first render is rehearsed off-screen (console/rehearsal.tsx). main.tsx calls it
 * too, for the sign-in page it shows before this router exists. Resolves when both have arrived.
 */
export function preloadConsole(): Promise<void> {
  const ready = Promise.all([loadConsole(), preloadPage(HOME_PAGE_COMPONENT)]).then(
    () => undefined,
  );
  void ready
    .then(async () => {
      if (getToken() !== null) return; // the console is opening: nothing left to rehearse
      const { rehearseConsole } = await import('./console/rehearsal');
      if (getToken() === null) rehearseConsole();
    })
    .catch(() => undefined); // a chunk that did not arrive is loaded again when needed
  return ready;
}

/**
 * Before the console renders at `path` (main.tsx), once the menu was asked for early (api/sys.ts:
 * a sign-in, a signed-in visit): loads the console and the page of the user's menu at `path`, so
 * that the first render shows that page at once instead of suspending twice. Without an early
 * menu (no session, a public page) nothing is loaded ahead: the routes load what they show.
 */
export function preloadConsoleAt(path: string): Promise<void> {
  const menu = peekEarlyPermission();
  if (!menu) return Promise.resolve();
  const page = menu
    .then((permission) => {
      const { pathname } = new URL(path, window.location.origin);
      const item = findMenuChain(permission.menu, pathname).at(-1);
      return item ? preloadPage(item.component) : undefined;
    })
    // A menu that failed is reported by the console, which asks for it again.
    .catch(() => undefined);
  return Promise.all([loadConsole(), page]).then(() => undefined);
}

/** The sign-in page inside the console (after a logout, say): its links use the router. */
function LoginRoute() {
  const navigate = useNavigate();
  return (
    <GuestOnly>
      <LoginPage
        onUserIntent={() => void preloadConsole()}
        onNavigate={(path) => void navigate(path)}
      />
    </GuestOnly>
  );
}

export function AppRoutes() {
  return (
    <PageErrorBoundary>
      <Suspense fallback={<PageLoading />}>
        <Routes>
          <Route path="/user" element={<Navigate to={LOGIN_PATH} replace />} />
          <Route path={LOGIN_PATH} element={<LoginRoute />} />
          <Route path="/user/register" element={<RegisterPage />} />
          <Route path="/user/register-result" element={<RegisterResultPage />} />
          <Route path="/user/alteration" element={<AlterationPage />} />
          <Route path="/user/sso/:protocol" element={<SsoCallbackPage />} />
          <Route path="/user/*" element={<Navigate to={NOT_FOUND_PATH} replace />} />
          <Route path={NOT_FOUND_PATH} element={<NotFoundPage />} />
          <Route
            index
            element={
              <RequireAuth>
                <Navigate to={HOME_PATH} replace />
              </RequireAuth>
            }
          />
          <Route
            path="*"
            element={
              <RequireAuth>
                <Console />
              </RequireAuth>
            }
          />
        </Routes>
      </Suspense>
    </PageErrorBoundary>
  );
}
