import type { FastifyRequest } from 'fastify';

/** One query value as the query parser left it: a repeated parameter counts by its first value. */
export function firstValue(value: unknown): string | undefined {
  if (Array.isArray(value)) return typeof value[0] === 'string' ? value[0] : undefined;
  return typeof value === 'string' ? value : undefined;
}

/** A query parameter of a request as one decoded string (the first when repeated), or undefined. */
export function queryValue(request: Pick<FastifyRequest, 'query'>, name: string): string | undefined {
  const query = request.query as Record<string, unknown> | undefined;
  return query && Object.hasOwn(query, name) ? firstValue(query[name]) : undefined;
}
