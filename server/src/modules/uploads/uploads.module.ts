import type { FastifyPluginAsync } from 'fastify';
import { DefaultTus } from '@burrow/protocol';
import type { Services } from '../../app.js';
import { createStagingArea } from './staging.js';
import { createUploadLocks } from './upload-locks.js';
import type { UploadHooks, UploadsLog } from './upload-context.js';
import { createUploadsRepository } from './uploads.repository.js';
import { createUploadsService, type UploadsService } from './uploads.service.js';
import { tusRoutes } from './tus.routes.js';
import { createHooks } from '../files/hooks.js';

export type UploadsOptions = {
  /** Runs the `upload` hooks around the moment an upload replaces its target (the settings'
   * command hooks unless given). */
  hooks?: UploadHooks;
  /** Largest `Upload-Length` accepted (413 beyond); the `maxUploadSize` setting unless set. */
  maxUploadLength?: number;
};

type UploadsDeps = Pick<Services, 'config' | 'db' | 'scopes' | 'fileEvents' | 'settings'> & { log: UploadsLog };

/** Builds the uploads service over the shared services (the HTTP module and tests use this). */
export function createUploads(services: UploadsDeps, options: UploadsOptions = {}): UploadsService {
  return createUploadsService({
    config: services.config,
    scopes: services.scopes,
    fileEvents: services.fileEvents,
    repository: createUploadsRepository(services.db),
    staging: createStagingArea(services.config.cacheDir, services.config.fileMode),
    locks: createUploadLocks(),
    hooks: options.hooks ?? createHooks(services, { log: services.log }),
    log: services.log,
    maxLength: options.maxUploadLength ?? services.config.maxUploadSize,
    chunkSize: () => services.settings.get().tus.chunkSize || DefaultTus.chunkSize,
  });
}

const running = new WeakMap<Services, UploadsService>();

/**
 * The app's one uploads service, for other modules whose uploads must share its locks, staging
 * and sweep (file requests); undefined before the uploads module is registered.
 */
export function uploadsServiceOf(services: Services): UploadsService | undefined {
  return running.get(services);
}

/**
 * The uploads module: the service, its expiry sweep (once at start, then on a timer stopped on
 * close) and the tus routes.
 */
export const uploadsModule: FastifyPluginAsync<{ services: Services } & UploadsOptions> = async (app, { services, ...options }) => {
  const uploads = createUploads({ ...services, log: app.log }, options);
  running.set(services, uploads);
  const stopSweeping = await uploads.startSweeping();
  app.addHook('onClose', async () => stopSweeping());
  await app.register(tusRoutes, { uploads, baseURL: services.config.baseURL });
};
