/**
 * The app as modules see it: typed with the TypeBox provider that `app.ts` sets, so a route's
 * `request.body`, `query` and `params` have the types of its schemas (no casts in handlers).
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyReply,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';

export type TypedApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/**
 * Sends a body that is already JSON text (built by the database or taken from a cache) as it is;
 * the route's response schema still documents its shape.
 */
export function sendJsonText(reply: FastifyReply, json: string | Buffer): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(json);
}

/**
 * The `:prefix` of a route that is also served under `/:prefix/…` without a params schema (the
 * prefixed copy is hidden from the document); null on the plain path.
 */
export function pathPrefixOf(params: unknown): string | null {
  return typeof params === 'object' && params !== null && 'prefix' in params && typeof params.prefix === 'string'
    ? params.prefix
    : null;
}
