import { Navigate, type RouteObject } from '../lib/router';
import { RootRoute } from './root-route';
import { RouteErrorBoundary } from './errors/route-error-boundary';
import { initialise } from './initialise';
import { withTranslations } from '../i18n/i18n';
import { RequireAuth } from './require-auth';
import { RequireAdmin } from './require-admin';
import { RequireGuest } from './require-guest';
import { RedirectToFiles } from './redirect-to-files';
import { ErrorRoute } from './errors/error-route';

/**
 * The route table of the app (spec section 2). Screens are loaded lazily, one chunk each, with
 * the translation sections only they use.
 */
export const routes: RouteObject[] = [
  {
    id: 'root',
    // The first navigation waits for the start-up step: session, language, captcha script. Later
    // navigations never run it again.
    loader: initialise,
    HydrateFallback: () => null,
    element: <RootRoute />,
    errorElement: <RouteErrorBoundary />,
    children: [
      {
        element: <RequireGuest />,
        children: [{ path: 'login', lazy: async () => ({ Component: (await withTranslations(import('./login/login-screen'), 'login')).LoginScreen }) }],
      },
      {
        lazy: async () => ({ Component: (await import('./layout/app-layout')).AppLayout }),
        children: [
          {
            // Pathless: a failing screen shows its error inside the layout, sidebar kept.
            errorElement: <RouteErrorBoundary />,
            children: [
          { path: 'share/*', lazy: async () => ({ Component: (await withTranslations(import('./share/share-screen'), 'share')).ShareScreen }) },
          { path: '403', element: <ErrorRoute code="forbidden" /> },
          { path: '404', element: <ErrorRoute code="not_found" /> },
          { path: '500', element: <ErrorRoute code="internal" /> },
          {
            element: <RequireAuth />,
            children: [
              { path: 'files/*', lazy: async () => ({ Component: (await import('./files/files-screen')).FilesScreen }) },
              { path: 'trash', lazy: async () => ({ Component: (await withTranslations(import('./trash/trash-screen'), 'trash')).TrashScreen }) },
              {
                path: 'settings',
                // The settings screens show their own texts and, for share management, the share ones.
                lazy: async () => ({ Component: (await withTranslations(import('./settings/settings-layout'), 'settings', 'share')).SettingsLayout }),
                children: [
                  { index: true, element: <Navigate to="/settings/profile" replace /> },
                  { path: 'profile', lazy: async () => ({ Component: (await import('./settings/profile-screen')).ProfileScreen }) },
                  { path: 'shares', lazy: async () => ({ Component: (await import('./settings/shares-screen')).SharesScreen }) },
                  {
                    element: <RequireAdmin />,
                    children: [
                      { path: 'global', lazy: async () => ({ Component: (await import('./settings/global-settings-screen')).GlobalSettingsScreen }) },
                      { path: 'users', lazy: async () => ({ Component: (await import('./settings/users-screen')).UsersScreen }) },
                      { path: 'users/new', lazy: async () => ({ Component: (await import('./settings/user-screen')).UserScreen }) },
                      { path: 'users/:id', lazy: async () => ({ Component: (await import('./settings/user-screen')).UserScreen }) },
                      { path: 'audit', lazy: async () => ({ Component: (await import('./settings/audit-screen')).AuditScreen }) },
                    ],
                  },
                ],
              },
            ],
          },
        ],
          },
        ],
      },
      { path: '*', element: <RedirectToFiles /> },
    ],
  },
];
