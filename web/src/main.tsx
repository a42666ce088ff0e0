import './app/global.css';
import { StrictMode, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { getToken, subscribeSession } from './api/session';
import { requestPermissionEarly } from './api/sys';
import { initI18n } from './app/i18n';
import LoginPage from './features/auth/LoginPage';
import { LOGIN_PATH, NOT_FOUND_PATH, safeRedirect } from './shared/paths';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
const root = createRoot(container);
const render = (node: ReactNode) => root.render(<StrictMode>{node}</StrictMode>);

/**
 * The console (antd, the router, every page) is a chunk the sign-in page does without: a visitor
 * who is not signed in downloads React, i18next and the sign-in page, and the console from the
 * moment they first focus the form, while they type. Then the console's first render is
 * rehearsed off-screen (app/AppRoutes.tsx, `preloadConsole`), so that after the click the console
 * has only its own page to draw.
 */
const loadConsole = () => import('./app/App');
const loadRoutes = () => import('./app/AppRoutes');

function prefetchConsole(): void {
  // Both chunks at once: the root (App) is small, the routes bring antd and the rest.
  void Promise.all([loadConsole(), loadRoutes().then(({ preloadConsole }) => preloadConsole())])
    // What did not arrive now is asked for again when the console opens.
    .catch(() => undefined);
}

/**
 * Renders the console in the same root, at `path` if given (no page reload), once its code and the
 * code of the page it opens on are there: the console's first commit then shows that page, with
 * no loading fallback in between (each one shown holds the page back for up to 300 ms in React 19).
 * Until then the page that led here stays as it is (the sign-in button spins).
 */
async function openConsole(path?: string, history: 'push' | 'replace' = 'replace'): Promise<void> {
  let App;
  try {
    [{ App }] = await Promise.all([
      loadConsole(),
      loadRoutes().then(({ preloadConsoleAt }) =>
        preloadConsoleAt(path ?? window.location.pathname),
      ),
    ]);
  } catch {
    // A chunk did not arrive (a new deployment, a dropped line): a full load of the page will.
    window.location.assign(path ?? window.location.href);
    return;
  }
  if (path) window.history[history === 'push' ? 'pushState' : 'replaceState'](null, '', path);
  render(<App />);
}

/**
 * The sign-in page on its own. A successful login stores the session: then the console opens at
 * the page that sent the user to log in (`?redirect=`), else at home, as the console's own route
 * guard would send them.
 */
function showSignIn(): void {
  const stopWatching = subscribeSession(() => {
    if (!getToken()) return;
    stopWatching();
    requestPermissionEarly();
    const target = safeRedirect(new URLSearchParams(window.location.search).get('redirect'));
    void openConsole(target);
  });
  render(
    <LoginPage
      onUserIntent={prefetchConsole}
      onNavigate={(path) => {
        stopWatching();
        void openConsole(path, 'push');
      }}
    />,
  );
}

const { pathname } = window.location;
const signingIn = (pathname === LOGIN_PATH || pathname === '/user') && getToken() === null;

// The first render is in the reader's language: its catalog is loaded before anything is drawn.
if (signingIn) {
  void initI18n().then(() => {
    if (pathname !== LOGIN_PATH) window.history.replaceState(null, '', LOGIN_PATH);
    showSignIn();
  });
} else {
  const i18nReady = initI18n();
  // A signed-in visit of the console (a reload, a link): the menu is asked for while the
  // console's code arrives. The public pages (registration, password reset, 404) need none.
  const publicPage =
    (pathname.startsWith('/user/') && pathname !== LOGIN_PATH) || pathname === NOT_FOUND_PATH;
  if (getToken() !== null && !publicPage) void i18nReady.then(requestPermissionEarly);
  void Promise.all([i18nReady, loadConsole()]).then(() => openConsole());
}
