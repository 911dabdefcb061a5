import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Ajv2019, type ValidateFunction } from 'ajv/dist/2019.js';

/**
 * Checks every response of the API tests against its route's declared response schema, before
 * serialization: a JSON field the schema does not declare (which the serializer would silently
 * drop), a wrong type, a status or a media type the route does not declare all count as
 * violations. Objects are checked closed (no undeclared property), so the schemas describe the
 * bodies exactly.
 */
export type ContractViolation = { method: string; url: string; status: number; problem: string };

type SchemaNode = Record<string, unknown>;
type ResponseEntry = SchemaNode & { content?: Record<string, { schema: SchemaNode }> };

/** A deep copy in which every object schema refuses properties it does not declare. */
function closed(schema: unknown, insideAllOf = false): unknown {
  if (Array.isArray(schema)) return schema.map((item) => closed(item));
  if (schema === null || typeof schema !== 'object') return schema;
  const node = schema as SchemaNode;
  const copy: SchemaNode = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'allOf' && Array.isArray(value)) copy[key] = value.map((item) => closed(item, true));
    else if (key === 'properties' || key === 'patternProperties') {
      copy[key] = Object.fromEntries(Object.entries(value as SchemaNode).map(([name, sub]) => [name, closed(sub)]));
    } else copy[key] = closed(value);
  }
  const isObject = node.type === 'object' || Array.isArray(node.allOf);
  if (isObject && !insideAllOf && node.additionalProperties === undefined && node.unevaluatedProperties === undefined) {
    copy.unevaluatedProperties = false;
  }
  return copy;
}

function mediaTypeOf(reply: FastifyReply): string {
  const header = reply.getHeader('content-type');
  const value = Array.isArray(header) ? header[0] : header;
  return String(value ?? 'application/json').split(';')[0]!.trim().toLowerCase();
}

function entryFor(response: Record<string, ResponseEntry>, status: number): ResponseEntry | undefined {
  return response[String(status)] ?? response[`${String(status)[0]}xx`] ?? response.default;
}

const isJson = (mediaType: string) => mediaType === 'application/json' || mediaType.endsWith('+json');

export function installContractCheck(app: FastifyInstance, violations: ContractViolation[]): void {
  const ajv = new Ajv2019({ strict: false, allErrors: true, validateFormats: false });
  const compiled = new WeakMap<object, ValidateFunction>();
  const checked = new WeakSet<FastifyRequest>();
  const validatorOf = (schema: SchemaNode) => {
    let validate = compiled.get(schema);
    if (!validate) {
      validate = ajv.compile(closed(schema) as SchemaNode);
      compiled.set(schema, validate);
    }
    return validate;
  };

  function report(request: FastifyRequest, reply: FastifyReply, problem: string) {
    const violation = { method: request.method, url: request.url, status: reply.statusCode, problem };
    violations.push(violation);
  }

  /** The schema this body must match, or a problem when the route does not declare one. */
  function schemaFor(request: FastifyRequest, reply: FastifyReply): { schema?: SchemaNode; problem?: string; skip?: boolean } {
    if (request.is404 || request.routeOptions.url === undefined) return { skip: true };
    const response = request.routeOptions.schema?.response as Record<string, ResponseEntry> | undefined;
    if (!response) return { problem: 'the route declares no responses' };
    const entry = entryFor(response, reply.statusCode);
    if (!entry) return { problem: `status ${reply.statusCode} is not declared` };
    const mediaType = mediaTypeOf(reply);
    if (entry.content) {
      const media = entry.content[mediaType] ?? entry.content['*/*'];
      if (!media) return { problem: `media type ${mediaType} is not declared for status ${reply.statusCode}` };
      return { schema: media.schema };
    }
    if (entry.type === 'null') return { problem: `status ${reply.statusCode} is declared without a body` };
    if (!isJson(mediaType)) return { problem: `media type ${mediaType} is sent where JSON is declared` };
    return { schema: entry };
  }

  function check(request: FastifyRequest, reply: FastifyReply, body: unknown) {
    const { schema, problem, skip } = schemaFor(request, reply);
    if (skip) return;
    if (problem || !schema) return report(request, reply, problem ?? 'no schema');
    const validate = validatorOf(schema);
    if (!validate(body)) report(request, reply, ajv.errorsText(validate.errors, { dataVar: 'body' }));
  }

  // Objects, before the serializer drops anything.
  app.addHook('preSerialization', async (request, reply, payload) => {
    checked.add(request);
    check(request, reply, payload);
    return payload;
  });

  // Everything the serializer did not see: text, JSON written by hand, files and streams.
  app.addHook('onSend', async (request, reply, payload) => {
    if (checked.has(request)) return payload;
    // 204 and 304 never carry a body on the wire, whatever a handler passes along.
    const bodiless = reply.statusCode === 204 || reply.statusCode === 304;
    const empty = bodiless || payload === undefined || payload === null || payload === '' || (Buffer.isBuffer(payload) && payload.length === 0);
    if (empty || request.method === 'HEAD') {
      // No body to check: the status must still be declared.
      if (request.is404 || request.routeOptions.url === undefined) return payload;
      const response = request.routeOptions.schema?.response as Record<string, ResponseEntry> | undefined;
      if (!response) report(request, reply, 'the route declares no responses');
      else if (!entryFor(response, reply.statusCode)) report(request, reply, `status ${reply.statusCode} is not declared`);
      return payload;
    }
    const { schema, problem, skip } = schemaFor(request, reply);
    if (skip) return payload;
    if (problem || !schema) {
      report(request, reply, problem ?? 'no schema');
      return payload;
    }
    const text = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) && isJson(mediaTypeOf(reply)) ? payload.toString('utf8') : undefined;
    if (text !== undefined) {
      if (isJson(mediaTypeOf(reply))) {
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          report(request, reply, 'a JSON media type with a body that is not JSON');
          return payload;
        }
        check(request, reply, parsed);
      } else check(request, reply, text);
    }
    // Other buffers and streams: the media type was declared; the bytes are the file's.
    return payload;
  });
}
