import fp from 'fastify-plugin';
import type { Config } from '../config.js';
import { pageCsp } from './web-app.js';

/**
 * Security headers on every response unless a route set its own (raw downloads set a sandbox
 * policy of their own). API answers are never cached.
 */
export const securityHeadersPlugin = fp<{ config: Config }>(async (app, { config }) => {
  const csp = pageCsp(config);
  app.addHook('onSend', async (request, reply, payload) => {
    if (!reply.hasHeader('content-security-policy')) reply.header('content-security-policy', csp);
    if (!reply.hasHeader('x-content-type-options')) reply.header('x-content-type-options', 'nosniff');
    if (!reply.hasHeader('referrer-policy')) reply.header('referrer-policy', 'same-origin');
    if (!reply.hasHeader('x-frame-options')) reply.header('x-frame-options', 'DENY');
    if (!reply.hasHeader('cache-control') && request.url.startsWith('/api/')) {
      reply.header('cache-control', 'no-cache, no-store, must-revalidate');
    }
    return payload;
  });
});
