/**
 * Route schemas compiled on a route's first request instead of at start, for the sandbox that
 * Betdesk starts inside itself (paper mode): Fastify compiles every route's validators and
 * response serializers when the app becomes ready, about a hundred milliseconds of a cold
 * start, although the app calls a handful of routes. The schemas and the compilers are the same
 * as the standalone sandbox's (which compiles them at start, so a broken schema still fails
 * there and in its tests); only the moment changes.
 */
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifySchemaCompiler, FastifyServerOptions } from 'fastify';

/** A compiler whose compiled functions are built by `compile` the first time they are called. */
function onFirstCall<Route, Fn extends (...args: never[]) => unknown>(
  compile: (route: Route) => Fn,
): (route: Route) => Fn {
  return (route) => {
    let compiled: Fn | undefined;
    return ((...args: Parameters<Fn>) => (compiled ??= compile(route))(...args)) as Fn;
  };
}

/**
 * The request validator compiler, compiling on first use. A part the compiler gives no
 * validator (it returns undefined for header schemas) keeps none, so Fastify still skips it.
 */
export function validateOnFirstUse<S>(compile: FastifySchemaCompiler<S>): FastifySchemaCompiler<S> {
  const later = onFirstCall(compile);
  return (route) => (route.httpPart === 'headers' ? compile(route) : later(route));
}

/** Fastify's `schemaController` option: its own response serializers, built on first use. */
export function serializeOnFirstUse(): NonNullable<FastifyServerOptions['schemaController']> {
  const build = SerializerSelector();
  return {
    compilersFactory: {
      buildSerializer: (externalSchemas, options) => onFirstCall(build(externalSchemas, options)),
    },
  };
}
