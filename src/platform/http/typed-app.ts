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
import type { AuthSpec, Ctx } from '../auth/types.js';
import { IdParams, NoContent } from './schemas.js';

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

/**
 * The Origin a storefront request's sale channel is resolved from (spec §4.5 rule 3): the `Origin`
 * header, else — for a publishable key — the origin the authorization hook proved for it (a
 * browser's same-origin GET carries no Origin and, under `Referrer-Policy: no-referrer`, no Referer:
 * the built-in storefront served on a channel's domain reads that channel's catalog).
 */
export function channelOriginOf(request: { headers: { origin?: string }; ctx?: Ctx }): string | undefined {
  const { origin } = request.headers;
  if (typeof origin === 'string') return origin;
  const actor = request.ctx?.actor;
  return actor?.kind === 'publishable' && actor.origin ? actor.origin : undefined;
}

/**
 * DELETE `url` (its `:id` in IdParams): `remove(ctx, id)`, then 204 without a body. `remove`
 * throws what a missing or undeletable row answers (404, 409).
 */
export function deleteByIdRoute(
  app: TypedApp,
  url: string,
  route: { config: { auth: AuthSpec }; tags: string[]; summary: string },
  remove: (ctx: Ctx, id: string) => Promise<unknown>,
): void {
  app.delete(
    url,
    {
      config: route.config,
      schema: { tags: route.tags, summary: route.summary, params: IdParams, response: { 204: NoContent } },
    },
    async (request, reply) => {
      await remove(request.ctx, request.params.id);
      return reply.code(204).send();
    },
  );
}
