import { App } from 'antd';
import { useEffect, useMemo } from 'react';
import type { RouteObject } from 'react-router';
import { Navigate, useRoutes } from 'react-router';
import { ApiError } from '../../api/errors';
import { logout } from '../../api/session';
import { NOT_FOUND_PATH } from '../../shared/paths';
import { useUserPermission } from '../../shared/permission/use-user-permission';
import { useTranslation } from 'react-i18next';
import { pageFor } from '../component-registry';
import { Shell } from '../layout/Shell';
import { PageLoading } from '../PageLoading';
import { menuRouteSpecs } from './menu-tree';
import { NoConsolePage } from './NoConsolePage';
import { usePermissionRefresh } from './use-permission-refresh';

/**
 * Everything behind the login: loads the user's menu, builds the routes from it (spec section 2)
 * and renders them inside the shell. A failed load logs out; the auth guard then shows login. A
 * user whose roles grant no page stays signed in on a page that says whom to ask.
 */
export default function Console() {
  const { t } = useTranslation();
  const { notification } = App.useApp();
  const permission = useUserPermission();
  usePermissionRefresh();
  const { data } = permission;
  const loadError = data ? null : permission.error;

  useEffect(() => {
    if (!loadError) return;
    // Errors of the HTTP client were reported by it; anything else is reported here.
    if (!(loadError instanceof ApiError)) {
      notification.error({ message: t('http.systemNotice'), description: loadError.message });
    }
    void logout();
  }, [loadError, notification, t]);

  const menuRoutes = useMemo<RouteObject[]>(
    () =>
      menuRouteSpecs(data?.menu ?? []).map((spec) => {
        if ('redirect' in spec)
          return { path: spec.path, element: <Navigate to={spec.redirect} replace /> };
        const Page = pageFor(spec.component);
        return { path: spec.path, element: <Page /> };
      }),
    [data],
  );

  const routes = useRoutes([
    {
      path: '/',
      element: <Shell menu={data?.menu ?? []} />,
      children: [...menuRoutes, { path: '*', element: <Navigate to={NOT_FOUND_PATH} replace /> }],
    },
  ]);

  if (!data) return <PageLoading />;
  return data.menu.length === 0 ? <NoConsolePage /> : routes;
}
