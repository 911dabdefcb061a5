import type { ComponentType, ReactNode } from 'react';

/**
 * A route of the route table. A loader runs the first time its route is shown (again only after
 * it failed); the first render waits for it. `lazy` fetches a screen's code before it is shown.
 */
export interface RouteObject {
  id?: string;
  path?: string;
  index?: boolean;
  element?: ReactNode;
  Component?: ComponentType;
  errorElement?: ReactNode;
  HydrateFallback?: ComponentType;
  loader?: () => unknown;
  lazy?: () => Promise<{ Component: ComponentType }>;
  children?: RouteObject[];
}

/** One way down the route table: the routes from the root to a leaf, tried as a whole. */
interface Branch {
  routes: RouteObject[];
  matcher: RegExp;
  paramNames: string[];
  score: number;
  /** Each route's index among its siblings: siblings of equal score match in table order. */
  order: number[];
}

export interface RouteMatch {
  routes: RouteObject[];
  params: Record<string, string>;
}

const paramPattern = /^:[\w-]+$/;

/** Static segments weigh most, then `:params`, then empty ones; a splat costs a little. */
function scoreOf(path: string, isIndex: boolean): number {
  const segments = path.split('/');
  let score = segments.length + (segments.includes('*') ? -2 : 0) + (isIndex ? 2 : 0);
  for (const segment of segments) {
    if (segment !== '*') score += paramPattern.test(segment) ? 3 : segment === '' ? 1 : 10;
  }
  return score;
}

/** `/users/:id` → a case-insensitive pattern; a trailing `/*` takes the rest of the path. */
function compile(path: string): [RegExp, string[]] {
  const names: string[] = [];
  let source =
    '^' +
    path
      .replace(/\/*\*?$/, '')
      .replace(/^\/*/, '/')
      .replace(/[\\.*+^${}|()[\]]/g, '\\$&')
      .replace(/\/:([\w-]+)/g, (_, name: string) => {
        names.push(name);
        return '/([^\\/]+)';
      });
  if (path.endsWith('*')) {
    names.push('*');
    source += path === '*' || path === '/*' ? '(.*)$' : '(?:\\/(.+)|\\/*)$';
  } else {
    source += '\\/*$';
  }
  return [new RegExp(source, 'i'), names];
}

const joinPaths = (...paths: string[]) => paths.join('/').replace(/\/\/+/g, '/');

/** Every route with a path or `index` ends a branch; pathless routes only wrap their children. */
function flatten(routes: RouteObject[], branches: Branch[] = [], parents: RouteObject[] = [], order: number[] = [], parentPath = ''): Branch[] {
  routes.forEach((route, index) => {
    const path = joinPaths(parentPath, route.path ?? '');
    const chain = [...parents, route];
    const chainOrder = [...order, index];
    if (route.children?.length) flatten(route.children, branches, chain, chainOrder, path);
    if (route.path == null && !route.index) return;
    const [matcher, paramNames] = compile(path);
    branches.push({ routes: chain, matcher, paramNames, score: scoreOf(path, route.index === true), order: chainOrder });
  });
  return branches;
}

function compareOrder(a: number[], b: number[]): number {
  const isSiblings = a.length === b.length && a.slice(0, -1).every((n, i) => n === b[i]);
  return isSiblings ? (a.at(-1) ?? 0) - (b.at(-1) ?? 0) : 0;
}

/** The route table ranked once: the best branch for a path is the first that matches. */
export function rankRoutes(routes: RouteObject[]): Branch[] {
  return flatten(routes).sort((a, b) => b.score - a.score || compareOrder(a.order, b.order));
}

/** Decodes each segment, keeping an encoded `/` as `%2F` so it cannot split a segment. */
function decodePath(value: string): string {
  try {
    return value
      .split('/')
      .map((segment) => decodeURIComponent(segment).replace(/\//g, '%2F'))
      .join('/');
  } catch {
    return value;
  }
}

/** The routes a (basename-free, URL-encoded) pathname shows, with its decoded params. */
export function matchRoutes(branches: Branch[], pathname: string): RouteMatch | null {
  const decoded = decodePath(pathname);
  for (const branch of branches) {
    const found = branch.matcher.exec(decoded);
    if (!found) continue;
    const params: Record<string, string> = {};
    branch.paramNames.forEach((name, i) => {
      params[name] = (found[i + 1] ?? '').replace(/%2F/g, '/');
    });
    return { routes: branch.routes, params };
  }
  return null;
}

/** The pathname below the base URL, or null when it lies outside (compared case-insensitively). */
export function stripBasename(pathname: string, basename: string): string | null {
  if (!basename) return pathname;
  if (!pathname.toLowerCase().startsWith(basename.toLowerCase())) return null;
  const next = pathname.charAt(basename.length);
  if (next && next !== '/') return null;
  return pathname.slice(basename.length) || '/';
}
