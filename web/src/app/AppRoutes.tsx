import { Suspense, lazy } from 'react';
import { Navigate, Route, Routes, useNavigate } from 'react-router';
import { HOME_PAGE_COMPONENT, preloadPage } from './component-registry';
import { withTexts } from './i18n';
import { GuestOnly, RequireAuth } from './guards';
import { PageErrorBoundary } from './PageErrorBoundary';
import { PageLoading } from './PageLoading';
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
const loadConsole = () => import('./console/Console');
const Console = lazy(loadConsole);

/**
 * Once the user starts on the login form, the console and the home page load in the background,
 * so the click on login lands on a console that is ready instead of one that starts downloading.
 * main.tsx calls it too, for the sign-in page it shows before this router exists.
 */
export function preloadConsole(): void {
  void loadConsole();
  preloadPage(HOME_PAGE_COMPONENT);
}

/** The sign-in page inside the console (after a logout, say): its links use the router. */
function LoginRoute() {
  const navigate = useNavigate();
  return (
    <GuestOnly>
      <LoginPage onUserIntent={preloadConsole} onNavigate={(path) => void navigate(path)} />
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
