import './app/global.css';
import { StrictMode, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { getToken, subscribeSession } from './api/session';
import { requestPermissionEarly } from './api/sys';
import { initI18n } from './app/i18n';
import LoginPage from './features/auth/LoginPage';
import { LOGIN_PATH, safeRedirect } from './shared/paths';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
const root = createRoot(container);
const render = (node: ReactNode) => root.render(<StrictMode>{node}</StrictMode>);

/**
 * The console (antd, the router, every page) is a chunk the sign-in page does without: a visitor
 * who is not signed in downloads React, i18next and the sign-in page, and the console from the
 * moment they first focus the form, while they type.
 */
const loadConsole = () => import('./app/App');

function prefetchConsole(): void {
  void import('./app/AppRoutes').then(({ preloadConsole }) => preloadConsole());
}

/** Renders the console in the same root, at `path` if given (no page reload). */
async function openConsole(path?: string, history: 'push' | 'replace' = 'replace'): Promise<void> {
  let App;
  try {
    ({ App } = await loadConsole());
  } catch {
    // The chunk did not arrive (a new deployment, a dropped line): a full load of the page will.
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
  void Promise.all([initI18n(), loadConsole()]).then(() => openConsole());
}
