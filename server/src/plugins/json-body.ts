import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route reads its body as JSON although it declares no body schema (the body is optional). */
    jsonBody?: boolean;
  }
}

/** Whether a route takes a JSON body: it validates one, or says so in its config. */
function takesJsonBody(request: FastifyRequest): boolean {
  return request.routeOptions.schema?.body !== undefined || request.routeOptions.config?.jsonBody === true;
}

/**
 * filebrowser's front end posts `JSON.stringify` strings without naming a content type, and
 * browsers label such bodies `text/plain;charset=UTF-8`; its server reads them as JSON whatever
 * their type. Here a text body is read as JSON on every route that takes JSON, with the same
 * parser (and the same "malformed JSON" answer) as `application/json`. Other routes keep text as
 * text, and modules that stream raw bodies (file contents, tus) replace every parser in their own
 * scope, so this never touches them.
 */
export const jsonBodyPlugin = fp(async (app) => {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser('text/plain', { parseAs: 'string' }, (request, body, done) => {
    if (takesJsonBody(request)) return parseJson(request, body as string, done);
    app.defaultTextParser(request, body as string, done);
  });
});
