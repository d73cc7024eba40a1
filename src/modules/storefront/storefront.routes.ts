/**
 * The public catalog (docs/storefront.md): `GET /api/store/products[/:idOrSlug]` with a
 * publishable key and an allowed Origin, also under `/:prefix/…` for channel resolution by path
 * prefix. Responses carry `x-channel-id` and are served from the storefront cache when the shop's
 * storefront version has not moved since they were computed.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { storefrontKey } from '../../platform/auth/presets.js';
import { channelOriginOf, type TypedApp } from '../../platform/http/typed-app.js';
import type { AppDeps } from '../../platform/module.js';
import type { PublicChannel } from '../catalog/index.js';
import { hostOf } from '../channels/index.js';
import { StorefrontReadModel } from './read-model.js';
import type { CachedResponse } from './storefront.cache.js';
import * as S from './storefront.schemas.js';
import {
  type ChannelHints,
  getStoreProduct,
  listStoreProducts,
  type StoreSerializer,
  storeChannel,
} from './storefront.service.js';

const tags = ['storefront'];
const JSON_TYPE = 'application/json; charset=utf-8';

/** The store routes are served with and without a path prefix (`/:prefix/api/store/…`). */
type StoreRequest<Route extends { Params?: object; Querystring?: object } = object> = FastifyRequest<{
  Params: { prefix?: string } & Route['Params'];
  Querystring: Route['Querystring'];
}>;

function hintsOf(request: StoreRequest): ChannelHints {
  const { referer } = request.headers;
  const origin = channelOriginOf(request);
  return {
    ...(typeof origin === 'string' ? { origin } : {}),
    ...(typeof referer === 'string' ? { referer } : {}),
    pathPrefix: request.params.prefix ?? null,
  };
}

function send(reply: FastifyReply, response: CachedResponse) {
  return reply.header('x-channel-id', response.channelId).type(JSON_TYPE).send(response.body);
}

const LIST_START = Buffer.from('{"products":[');
const COMMA = Buffer.from(',');
const DETAIL_START = Buffer.from('{"product":');
const DETAIL_END = Buffer.from('}');

/**
 * A product by the routes' product schema (Fastify's serializer, compiled once per route); the
 * list and detail envelopes around product fragments, in the key order of StoreProductList and
 * StoreProductWrapper (integers only besides the fragments).
 */
function serializerOf(reply: FastifyReply): StoreSerializer {
  return {
    product: (p) => Buffer.from(reply.serializeInput(p as unknown as Record<string, unknown>, S.StoreProduct)),
    list: (products, m) => {
      const parts: Buffer[] = [LIST_START];
      for (const [i, p] of products.entries()) {
        if (i > 0) parts.push(COMMA);
        parts.push(p);
      }
      parts.push(Buffer.from(`],"count":${m.count},"limit":${m.limit},"offset":${m.offset}}`));
      return Buffer.concat(parts);
    },
    detail: (product) => Buffer.concat([DETAIL_START, product, DETAIL_END]),
  };
}
export function storefrontRoutes(app: TypedApp, deps: AppDeps): void {
  const model = new StorefrontReadModel(deps.database.db);
  const cache = model.responses;

  /**
   * Answers from the cache when the shop's storefront version is unchanged; else resolves the
   * channel, computes the body (from the product fragments, storefront.service.ts) and keeps it.
   * Everything that selects the channel (Origin and Referer hosts, path prefix) is in the key.
   */
  async function cached(
    request: StoreRequest,
    reply: FastifyReply,
    what: string,
    compute: (channel: PublicChannel) => Promise<Buffer>,
  ) {
    const ctx = request.ctx;
    const hints = hintsOf(request);
    const key = [ctx.shopId, hostOf(hints.origin), hostOf(hints.referer), hints.pathPrefix ?? '', what].join('\u0000');
    // read together with the publishable key by the authorization hook: no extra round trip
    const version = ctx.actor?.kind === 'publishable' ? ctx.actor.catalogVersion : await cache.version(ctx.shopId);
    const hit = cache.get(key, version);
    if (hit) return send(reply, hit);
    const channel = await storeChannel(ctx, hints);
    const response = { channelId: channel.id, body: await compute(channel) };
    // Stored under the version read before the data: a write committing in between only makes
    // the entry look older than it is, never newer.
    cache.set(key, version, response);
    return send(reply, response);
  }

  const list = async (request: StoreRequest<{ Querystring: S.StoreListInput }>, reply: FastifyReply) => {
    const q = request.query;
    const what = JSON.stringify(['list', q.q ?? null, q.category_id ?? null, q.limit ?? null, q.offset ?? null]);
    return cached(request, reply, what, (channel) =>
      listStoreProducts(request.ctx, channel, q, model, serializerOf(reply)),
    );
  };
  const detail = async (request: StoreRequest<{ Params: { idOrSlug: string } }>, reply: FastifyReply) => {
    const { idOrSlug } = request.params;
    return cached(request, reply, JSON.stringify(['detail', idOrSlug]), (channel) =>
      getStoreProduct(request.ctx, channel, idOrSlug, model, serializerOf(reply)),
    );
  };

  const listSchema = {
    tags,
    summary: 'Products visible in the storefront channel, newest first',
    description:
      'Publishable key and an allowed Origin. The channel: an active channel whose domain is the Origin host, ' +
      'else the Referer host; else one with the path prefix; else the default channel (header x-channel-id).',
    querystring: S.StoreListQuery,
    response: { 200: S.StoreProductList },
  };
  const detailSchema = {
    tags,
    summary: 'A product visible in the storefront channel, by id or slug',
    response: { 200: S.StoreProductWrapper },
  };

  app.get('/api/store/products', { config: storefrontKey, schema: listSchema }, list);
  app.get(
    '/:prefix/api/store/products',
    {
      config: storefrontKey,
      schema: { ...listSchema, params: S.PrefixParams, summary: `${listSchema.summary} (path prefix)` },
    },
    list,
  );
  app.get(
    '/api/store/products/:idOrSlug',
    { config: storefrontKey, schema: { ...detailSchema, params: S.ProductParams } },
    detail,
  );
  app.get(
    '/:prefix/api/store/products/:idOrSlug',
    {
      config: storefrontKey,
      schema: { ...detailSchema, params: S.PrefixProductParams, summary: `${detailSchema.summary} (path prefix)` },
    },
    detail,
  );
}
