import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiPaths, ApiTags, Settings, SettingsUpdate, responses, textResponse } from '@burrow/protocol';
import type { SettingsService } from './settings.service.js';
import { sendStatus } from '../../plugins/error-handler.js';

export const settingsRoutes: FastifyPluginAsyncTypebox<{ settings: SettingsService }> = async (app, { settings }) => {
  const tags = [ApiTags.settings];
  app.get(ApiPaths.settings, { preHandler: app.requireAdmin, schema: { summary: 'The global settings (admins)', tags, response: responses({ 200: Settings }) } }, async () => settings.get());

  app.put(
    ApiPaths.settings,
    { preHandler: app.requireAdmin, schema: { summary: 'Replace the global settings (admins)', tags, body: SettingsUpdate, response: responses({ 200: textResponse('Saved') }) } },
    async (request, reply) => {
      await settings.update(request.body);
      return sendStatus(reply, 200);
    },
  );
};
