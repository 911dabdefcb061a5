import { test as base, expect, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { BurrowServer, type CreatedUser, type ServerOptions, type UserSpec, AdminPassword } from './support/burrow-server';
import { RootFolder } from './support/root-folder';

export { expect, AdminPassword, BurrowServer, RootFolder };
export type { UserSpec };

/** A user made for one test, with a way to open a logged-in page for them. */
export type TestUser = CreatedUser & { token: () => Promise<string> };

type TestFixtures = {
  /** The worker's server root; `folder` is a fresh, empty folder for this test. */
  root: RootFolder & { folder: string };
  /** Creates a user through the API with a unique name (options: admin, perm, locale …). */
  makeUser: (spec?: UserSpec) => Promise<TestUser>;
  /** A page whose session belongs to the admin (token in localStorage and the cookie). */
  adminPage: Page;
  /** Opens a logged-in page for any user, on the worker's server or another one. */
  pageAs: (user: { username: string; password: string }, options?: { server?: BurrowServer }) => Promise<Page>;
  /** Starts an extra server for this test (its own settings, base URL or token lifetime); stopped afterwards. */
  launchServer: (options?: ServerOptions) => Promise<BurrowServer>;
};

type WorkerFixtures = {
  /** One server per worker, started from the built `server/dist`, shared by that worker's tests. */
  server: BurrowServer;
};

/** A browser context whose storage already holds the session, as after a login. */
export async function loggedInContext(browser: Browser, server: BurrowServer, token: string, options: Parameters<Browser['newContext']>[0] = {}): Promise<BrowserContext> {
  return browser.newContext({
    ...options,
    baseURL: server.url + '/',
    storageState: {
      cookies: [
        {
          name: 'auth',
          value: token,
          domain: '127.0.0.1',
          path: server.baseURL || '/',
          expires: -1,
          httpOnly: false,
          secure: false,
          sameSite: 'Strict',
        },
      ],
      origins: [{ origin: server.origin, localStorage: [{ name: 'jwt', value: token }] }],
    },
  });
}

let folderCounter = 0;

export const test = base.extend<TestFixtures, WorkerFixtures>({
  server: [
    async ({}, use) => {
      const server = await BurrowServer.start();
      await use(server);
      await server.stop();
    },
    { scope: 'worker', timeout: 60_000 },
  ],

  baseURL: async ({ server }, use) => {
    await use(server.url + '/');
  },

  root: async ({ server }, use, testInfo) => {
    folderCounter += 1;
    const folder = `t${testInfo.workerIndex}-${folderCounter}-${testInfo.title.replace(/[^a-z0-9]+/gi, '-').slice(0, 40)}`;
    const root = Object.assign(new RootFolder(server.root), { folder });
    root.mkdir(folder);
    await use(root);
  },

  makeUser: async ({ server }, use) => {
    await use(async (spec) => {
      const user = await server.createUser(spec);
      return { ...user, token: () => server.login(user.username, user.password) };
    });
  },

  pageAs: async ({ browser, server, contextOptions }, use) => {
    const contexts: BrowserContext[] = [];
    await use(async (user, options = {}) => {
      const target = options.server ?? server;
      const token = await target.login(user.username, user.password);
      const context = await loggedInContext(browser, target, token, contextOptions);
      contexts.push(context);
      return context.newPage();
    });
    for (const context of contexts) await context.close();
  },

  adminPage: async ({ pageAs }, use) => {
    await use(await pageAs({ username: 'admin', password: AdminPassword }));
  },

  launchServer: async ({}, use) => {
    const servers: BurrowServer[] = [];
    await use(async (options) => {
      const server = await BurrowServer.start(options);
      servers.push(server);
      return server;
    });
    for (const server of servers) await server.stop();
  },
});

/** Waits until the start-up overlay is gone, i.e. the first navigation has finished. */
export async function waitForApp(page: Page): Promise<void> {
  await page.locator('#loading').waitFor({ state: 'detached' });
}
