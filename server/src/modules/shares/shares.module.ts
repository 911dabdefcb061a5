import type { FastifyPluginAsync } from 'fastify';
import type { SharesService } from './shares.service.js';
import type { PublicSharesService } from './public-shares.service.js';
import type { FileRequests } from './file-requests.service.js';
import { sharesRoutes } from './shares.routes.js';
import { publicSharesRoutes } from './public-shares.routes.js';
import { fileRequestsRoutes } from './file-requests.routes.js';

export type SharesDeps = {
  shares: SharesService;
  publicShares: PublicSharesService;
  /** Upload-only links; they upload through the app's one uploads service. */
  fileRequests: FileRequests;
  baseURL: string;
};

/**
 * Share links: the authenticated API, the public endpoints and the upload-only links. Links are
 * retired when their target or owner goes away by the share lifecycle, wired in the composition
 * root.
 */
export const sharesModule: FastifyPluginAsync<SharesDeps> = async (app, { shares, publicShares, fileRequests, baseURL }) => {
  await app.register(sharesRoutes, { service: shares });
  await app.register(publicSharesRoutes, { publicShares });
  await app.register(fileRequestsRoutes, { requests: fileRequests, baseURL });
};
