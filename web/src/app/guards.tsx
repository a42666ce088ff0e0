import type { ReactNode } from 'react';
import { useSyncExternalStore } from 'react';
import { Navigate, useLocation, useSearchParams } from 'react-router';
import { getToken, subscribeSession } from '../api/session';
import { LOGIN_PATH, safeRedirect } from '../shared/paths';

function useToken(): string | null {
  return useSyncExternalStore(subscribeSession, getToken);
}

/** Spec section 4: without a token only public routes are reachable. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const token = useToken();
  const { pathname, search } = useLocation();
  if (!token) {
    const redirect = encodeURIComponent(`${pathname}${search}`);
    return <Navigate to={`${LOGIN_PATH}?redirect=${redirect}`} replace />;
  }
  return children;
}

/**
 * With a token, the login page sends the user into the console: to the page that sent them to
 * log in, else home. The login itself stores the token, so this is also where a fresh login lands.
 */
export function GuestOnly({ children }: { children: ReactNode }) {
  const token = useToken();
  const [searchParams] = useSearchParams();
  return token ? <Navigate to={safeRedirect(searchParams.get('redirect'))} replace /> : children;
}
