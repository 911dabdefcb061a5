import type { FastifyPluginAsync } from 'fastify';
import { DefaultTus } from '@burrow/protocol';
import type { Config } from '../../config.js';
import type { Cluster } from '../../storage/cluster.js';
import type { Db } from '../../storage/db.js';
import type { FileEvents } from '../../storage/file-events.js';
import type { Scopes } from '../../storage/scopes.js';
import type { SettingsService } from '../settings/settings.service.js';
import { createStagingArea } from './staging.js';
import { createUploadLocks } from './upload-locks.js';
import type { UploadHooks, UploadsLog } from './upload-context.js';
import { createUploadsRepository, type UploadsRepository } from './uploads.repository.js';
import { createUploadsService, type UploadsService } from './uploads.service.js';
import { tusRoutes } from './tus.routes.js';
import { createHooks } from '../files/hooks.js';

export type UploadsOptions = {
  /** Runs the `upload` hooks around the moment an upload replaces its target (the settings'
   * command hooks unless given). */
  hooks?: UploadHooks;
  /** Largest `Upload-Length` accepted (413 beyond); the `maxUploadSize` setting unless set. */
  maxUploadLength?: number;
  /** The upload rows (a new repository over `db` unless given). */
  repository?: UploadsRepository;
};

/** What the uploads service is built from. */
export type UploadsServiceDeps = {
  config: Config;
  db: Db;
  scopes: Scopes;
  fileEvents: FileEvents;
  settings: SettingsService;
  log: UploadsLog;
  /** The instances sharing the database: uploads are locked and swept across all of them. */
  cluster?: Cluster;
};

/** Builds the uploads service (the composition root and tests use this). */
export function createUploads(deps: UploadsServiceDeps, options: UploadsOptions = {}): UploadsService {
  return createUploadsService({
    config: deps.config,
    scopes: deps.scopes,
    fileEvents: deps.fileEvents,
    repository: options.repository ?? createUploadsRepository(deps.db),
    staging: createStagingArea(deps.config.cacheDir, deps.config.fileMode),
    locks: createUploadLocks({ cluster: deps.cluster, log: deps.log }),
    cluster: deps.cluster,
    hooks: options.hooks ?? createHooks(deps, { log: deps.log }),
    log: deps.log,
    maxLength: options.maxUploadLength ?? deps.config.maxUploadSize,
    chunkSize: () => deps.settings.get().tus.chunkSize || DefaultTus.chunkSize,
  });
}

export type UploadsDeps = { uploads: UploadsService; baseURL: string };

/**
 * The uploads module: the expiry sweep of the uploads service (once at start, then on a timer
 * stopped on close) and the tus routes.
 */
export const uploadsModule: FastifyPluginAsync<UploadsDeps> = async (app, { uploads, baseURL }) => {
  const stopSweeping = await uploads.startSweeping();
  app.addHook('onClose', async () => stopSweeping());
  await app.register(tusRoutes, { uploads, baseURL });
};
