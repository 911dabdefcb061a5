import AjvCompiler from '@fastify/ajv-compiler';
import SerializerSelector from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

type Validate = ((data: unknown) => unknown) & { errors?: unknown };
type Serialize = (data: unknown) => string;

/**
 * Fastify's own schema compilers (Ajv for what comes in, fast-json-stringify for what goes out),
 * each route's function compiled on its first use instead of at start. Every route compiled up
 * front cost start-up time and heap for routes an instance may never serve (WebDAV, sign-on,
 * imports, the admin screens); compiled once, a function serves as before. A schema that cannot
 * compile now fails its route's requests instead of the start; a test compiles every route's
 * schemas with these same compilers.
 */
export function lazySchemaCompilers(): NonNullable<FastifyServerOptions['schemaController']> {
  const buildValidator = AjvCompiler();
  const buildSerializer = SerializerSelector();
  return {
    compilersFactory: {
      buildValidator(externalSchemas, options) {
        const compile = buildValidator(externalSchemas, options);
        return (route) => {
          let compiled: Validate | undefined;
          const validate: Validate = (data) => {
            compiled ??= compile(route) as Validate;
            const result = compiled(data);
            // Fastify reads the failures where Ajv leaves them, on the function it called.
            validate.errors = compiled.errors;
            return result;
          };
          // Typed as Ajv's function; Fastify calls it and reads `errors`, nothing else.
          return validate as unknown as ReturnType<typeof compile>;
        };
      },
      buildSerializer(externalSchemas, options) {
        const compile = buildSerializer(externalSchemas, options);
        return (route) => {
          let compiled: Serialize | undefined;
          return (data: unknown) => (compiled ??= compile(route) as Serialize)(data);
        };
      },
    },
  };
}
