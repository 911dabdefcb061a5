import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.js';
import { createCoreServices, type CoreServices } from './core-services.js';
import { createHooks, type Hooks } from './modules/files/hooks.js';
import { createFilesService, type FilesService } from './modules/files/files.service.js';
import { createDownloadsService, type DownloadsService } from './modules/downloads/downloads.service.js';
import { createThumbnailCache } from './modules/previews/thumbnail-cache.js';
import { createVideoFrames } from './modules/previews/video-frame.js';
import { createPreviewsService, type PreviewsService } from './modules/previews/previews.service.js';
import { createSubtitlesService, type SubtitlesService } from './modules/previews/subtitles.service.js';
import { createUploads } from './modules/uploads/uploads.module.js';
import { createUploadsRepository } from './modules/uploads/uploads.repository.js';
import type { UploadsService } from './modules/uploads/uploads.service.js';
import { createSharesRepository, type SharesRepository } from './modules/shares/shares.repository.js';
import { createSharesService, type SharesService } from './modules/shares/shares.service.js';
import { createShareAccess } from './modules/shares/share-access.js';
import { createShareLifecycle } from './modules/shares/share-lifecycle.js';
import { createFileRequestsRepository } from './modules/shares/file-requests.repository.js';
import { createFileRequests, type FileRequests } from './modules/shares/file-requests.service.js';
import { createPublicSharesService, type PublicSharesService } from './modules/shares/public-shares.service.js';
import { createSearchService, type SearchService } from './modules/search/search.service.js';
import { sandboxFor } from './modules/commands/sandbox.js';
import { createCommandsService, type CommandsService } from './modules/commands/commands.service.js';
import { createTrashService, type TrashService } from './modules/trash/trash.service.js';
import { createTrashSweeper, type TrashSweeper } from './modules/trash/trash-sweeper.js';
import { createAuditService, type AuditService } from './modules/audit/audit.service.js';
import { createTwoFactorService, type TwoFactorService } from './modules/two-factor/two-factor.service.js';
import { createApiTokensService, type ApiTokensService } from './modules/api-tokens/api-tokens.service.js';
import { createOidcSettings, type OidcSettingsStore } from './modules/oidc/oidc.settings.js';
import { createOidcService, type OidcService } from './modules/oidc/oidc.service.js';
import { createLockStore, type LockStore } from './modules/webdav/locks.js';
import { createDeadProperties, type DeadProperties } from './modules/webdav/dead-properties.js';
import { createDavAuthenticator, type DavAuthenticator } from './modules/webdav/webdav-auth.js';

/** Every service of a running server, each built once by `createServices`. */
export type Services = CoreServices & {
  /** The `before_`/`after_` command hooks around file operations. */
  hooks: Hooks;
  files: FilesService;
  downloads: DownloadsService;
  /** One render queue over the one thumbnail cache, for the owners' and the visitors' previews. */
  previews: PreviewsService;
  subtitles: SubtitlesService;
  /** The one uploads service: its locks, staging and sweep serve tus and upload-only links alike. */
  uploads: UploadsService;
  shares: SharesService;
  /** The stored links, for lookups outside the shares module (the audit log names a link's owner). */
  shareRepository: SharesRepository;
  publicShares: PublicSharesService;
  fileRequests: FileRequests;
  search: SearchService;
  commands: CommandsService;
  trash: TrashService;
  trashSweeper: TrashSweeper;
  audit: AuditService;
  twoFactor: TwoFactorService;
  apiTokens: ApiTokensService;
  oidc: OidcService;
  oidcSettings: OidcSettingsStore;
  webdav: { locks: LockStore; properties: DeadProperties; authenticator: DavAuthenticator };
  /** Detaches the listeners wired here and closes the database (the server calls it on close). */
  close(): Promise<void>;
};

export type ServicesOptions = {
  /** The server's logger; services that log write here. */
  log: FastifyBaseLogger;
  /** Replaces the global fetch for outgoing calls (reCAPTCHA verification in tests). */
  fetchImpl?: typeof fetch;
};

/**
 * The composition root: builds every service exactly once, in dependency order, and wires the
 * listeners between them (file events, user deletion, the login's extra checks). Route plugins
 * get the services they use from here; nothing else constructs a service.
 */
export async function createServices(config: Config, options: ServicesOptions): Promise<Services> {
  const { log } = options;
  const core = await createCoreServices(config, { log, fetchImpl: options.fetchImpl });
  const { db, settings, scopes, usersRepository, users, auth, fileEvents } = core;
  const detachers: Array<() => void> = [];

  // Files: one hook runner for every way of changing files (API, WebDAV, uploads, trash).
  const hooks = createHooks({ config, settings, scopes }, { log });
  const files = createFilesService({ config, db, scopes, fileEvents, settings, hooks });
  const trash = createTrashService({ config, db, scopes, fileEvents, settings, hooks });
  const trashSweeper = createTrashSweeper({ config, db, scopes, settings }, log);

  // Downloads and previews.
  const downloads = createDownloadsService({ scopes });
  const previews = createPreviewsService({ config, downloads, cache: createThumbnailCache(config.cacheDir, log), videoFrames: createVideoFrames() });
  const subtitles = createSubtitlesService({ downloads });
  detachers.push(fileEvents.on((event) => previews.onFileEvent(event)));

  // Uploads, then share links and upload-only links over them.
  const uploadRows = createUploadsRepository(db);
  const uploads = createUploads({ config, db, scopes, fileEvents, settings, log, cluster: core.cluster }, { hooks, repository: uploadRows });
  const shareRows = createSharesRepository(db);
  const fileRequestRows = createFileRequestsRepository(db);
  const shareDeps = { shares: shareRows, users: usersRepository, scopes };
  const shares = createSharesService({ ...shareDeps, fileRequests: fileRequestRows });
  const access = createShareAccess({ ...shareDeps, guessCounts: core.signIn.limits });
  const publicShares = createPublicSharesService({ access, previews, subtitles });
  const fileRequests = createFileRequests({ access, uploads, uploadRows, repository: fileRequestRows, cluster: core.cluster });
  const lifecycle = createShareLifecycle(shareDeps);
  detachers.push(fileEvents.on((event) => lifecycle.onFileEvent(event)));
  users.onUserDeleted((user) => lifecycle.onUserDeleted(user));

  // Search: the index follows Burrow's own changes at once.
  const search = createSearchService({ config, scopes, log, db, cluster: core.cluster }, { rescanIntervalMs: config.searchRescanInterval * 1000 });
  detachers.push(fileEvents.on((event) => search.onFileEvent(event)));

  // The command runner (and hooks) need the sandbox; the log says once why they are off.
  const sandbox = sandboxFor(config);
  const sandboxState = await sandbox.ready;
  if (!sandboxState.available && sandboxState.state !== 'off') log.warn(`commands and hooks are off: ${sandboxState.reason}`);
  const commands = createCommandsService({ config, settings, scopes, sandbox });

  // Sign-in: second factors, API tokens and single sign-on plug into the auth service.
  const audit = await createAuditService({ db, target: config.auditLog, log });
  const twoFactor = createTwoFactorService({ db, settings, users: usersRepository, issue: (user) => auth.issue(user), cluster: core.cluster, limits: core.signIn.limits, challenges: core.signIn.challenges });
  await twoFactor.loadPolicy();
  auth.useSecondFactor((user) => twoFactor.afterPassword(user));
  users.onUserDeleted((user) => twoFactor.forget(user.id));
  const apiTokens = createApiTokensService({ db, users: usersRepository });
  auth.useApiTokens((token) => apiTokens.authenticate(token));
  users.onUserDeleted((user) => apiTokens.forget(user.id));
  const oidcSettings = await createOidcSettings(db, config.oidc, core.cluster);
  const oidc = createOidcService({ db, store: oidcSettings, settings, users: usersRepository, usersService: users, auth, log, flows: core.signIn.flows });
  auth.usePasswordLoginCheck((user) => oidc.checkPasswordLogin(user));

  // WebDAV: locks and dead properties belong to a resource at its place.
  const locks = createLockStore({ db: core.cluster.shared ? db : undefined });
  const properties = createDeadProperties(db, scopes.serverRoot);
  const authenticator = createDavAuthenticator({ auth, settings, users });
  detachers.push(
    fileEvents.on(async (event) => {
      if (event.kind === 'deleted') await locks.dropAt(event.real);
      if (event.kind === 'moved') await locks.dropAt(event.fromReal);
      await properties.onFileEvent(event);
    }),
  );

  return {
    ...core,
    hooks,
    files,
    downloads,
    previews,
    subtitles,
    uploads,
    shares,
    shareRepository: shareRows,
    publicShares,
    fileRequests,
    search,
    commands,
    trash,
    trashSweeper,
    audit,
    twoFactor,
    apiTokens,
    oidc,
    oidcSettings,
    webdav: { locks, properties, authenticator },
    async close() {
      for (const detach of detachers.splice(0)) detach();
      await core.cluster.close();
      await db.destroy();
    },
  };
}
