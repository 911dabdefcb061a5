import { createBrowserRouter } from '../lib/router';
import { setNavigator } from '../lib/navigation';
import { routes } from './route-table';

/** HTML5 history rooted at the base URL the server runs under. */
export function createAppRouter(baseURL: string) {
  const router = createBrowserRouter(routes, { basename: baseURL || '/' });
  setNavigator((to, options) => void router.navigate(to, options));
  return router;
}
