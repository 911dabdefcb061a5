/** API path prefixes shared by the server routes and the web client. */
export const ApiPaths = {
  health: '/health',
  login: '/api/login',
  logout: '/api/logout',
  renew: '/api/renew',
  signup: '/api/signup',
  users: '/api/users',
  settings: '/api/settings',
  resources: '/api/resources',
  resourcesRecursive: '/api/resources/recursive',
  raw: '/api/raw',
  preview: '/api/preview',
  subtitle: '/api/subtitle',
  usage: '/api/usage',
  tus: '/api/tus',
  search: '/api/search',
  command: '/api/command',
  shares: '/api/shares',
  share: '/api/share',
  publicShare: '/api/public/share',
  publicDownload: '/api/public/dl',
  trash: '/api/trash',
  static: '/static',
} as const;

/** Headers with protocol meaning. */
export const Headers = {
  auth: 'x-auth',
  renewToken: 'x-renew-token',
  sharePassword: 'x-share-password',
  encoding: 'x-encoding',
} as const;

/** Name of the cookie the front end writes with the JWT (read for GET requests only). */
export const AuthCookie = 'auth';

/** Query parameter that may carry the JWT on any request (checked after X-Auth, before the cookie). */
export const AuthQueryParam = 'auth';
