import type { FastifyPluginAsync } from 'fastify';
import { ApiPaths, SettingsUpdate } from '@burrow/protocol';
import type { SettingsService } from './settings.service.js';
import { sendStatus } from '../../plugins/error-handler.js';

export const settingsRoutes: FastifyPluginAsync<{ settings: SettingsService }> = async (app, { settings }) => {
  app.get(ApiPaths.settings, { preHandler: app.requireAdmin }, async () => settings.get());

  app.put(ApiPaths.settings, { preHandler: app.requireAdmin, schema: { body: SettingsUpdate } }, async (request, reply) => {
    await settings.update(request.body as SettingsUpdate);
    return sendStatus(reply, 200);
  });
};
