/**
 * The public catalog of a storefront request: resolve the channel (docs/storefront.md), then list
 * or read the products visible in it (catalog's public view), as response bodies assembled from
 * the per-product fragments (storefront.fragments.ts). Services take ctx first.
 */
import type { Ctx } from '../../platform/auth/types.js';
import { notFound } from '../../platform/errors.js';
import { catalogVersionOf } from '../../platform/versioned-memo.js';
import {
  type PublicChannel,
  type PublicProduct,
  publicPageIds,
  publicProduct,
  publicProducts,
  publicProductsByIds,
} from '../catalog/index.js';
import { resolveChannel } from '../channels/index.js';
import type { StorefrontReadModel } from './read-model.js';
import type { ProductFragments } from './storefront.fragments.js';
import type { StoreListInput } from './storefront.schemas.js';

/** What selects the channel of a storefront request. */
export interface ChannelHints {
  origin?: string;
  referer?: string;
  pathPrefix: string | null;
}

/** The channel serving the request; 404 channel_not_found when no active channel does. */
export async function storeChannel(ctx: Ctx, hints: ChannelHints): Promise<PublicChannel> {
  const channel = await resolveChannel(ctx, hints);
  return { id: channel.id, currency: channel.currency };
}

export const DEFAULT_LIMIT = 50;

/** How a response body is written: the product by the route's product schema (UTF-8), and the envelopes. */
export interface StoreSerializer {
  product(product: PublicProduct): Buffer;
  /** The list body of these product fragments (each a serialized product). */
  list(products: Buffer[], meta: { count: number; limit: number; offset: number }): Buffer;
  /** The detail body of one product fragment. */
  detail(product: Buffer): Buffer;
}

/** Serializes products and keeps their fragments under the version the request read (if any). */
function fragmentsOf(
  ctx: Ctx,
  channel: PublicChannel,
  products: PublicProduct[],
  fragments: ProductFragments,
  serializer: StoreSerializer,
  version: number | null,
): Buffer[] {
  return products.map((p) => {
    const json = serializer.product(p);
    if (version !== null) fragments.set(ctx.shopId, channel.id, p, version, json);
    return json;
  });
}

/**
 * Products visible in the channel, newest first, with the exact count: the body. A page whose ids
 * catalog knows (or cuts from the channel's whole list) is answered from the fragments, reading
 * only the products not held; otherwise catalog reads the page (and remembers the filter's ids).
 */
export async function listStoreProducts(
  ctx: Ctx,
  channel: PublicChannel,
  input: StoreListInput,
  model: StorefrontReadModel,
  serializer: StoreSerializer,
): Promise<Buffer> {
  const version = catalogVersionOf(ctx.actor);
  const { fragments, lists } = model;
  const filter = {
    ...(input.q !== undefined ? { q: input.q } : {}),
    ...(input.category_id !== undefined ? { category_id: input.category_id } : {}),
    limit: input.limit ?? DEFAULT_LIMIT,
    offset: input.offset ?? 0,
  };
  const meta = { limit: filter.limit, offset: filter.offset };
  const known = await publicPageIds(ctx, lists, channel.id, filter, version);
  if (known === undefined || version === null) {
    const page = await publicProducts(ctx, lists, channel, filter, version);
    const json = fragmentsOf(ctx, channel, page.products, fragments, serializer, version);
    return serializer.list(json, { count: page.count, ...meta });
  }
  const held = known.ids.map((id) => fragments.get(ctx.shopId, channel.id, id, version));
  const missing = known.ids.filter((_, i) => held[i] === undefined);
  const read = new Map<string, Buffer>();
  if (missing.length > 0) {
    const products = await publicProductsByIds(ctx, channel, missing);
    const json = fragmentsOf(ctx, channel, products, fragments, serializer, version);
    for (const [i, p] of products.entries()) read.set(p.id, json[i] as Buffer);
  }
  // a product read as no longer visible (a change after the version was read) is left out
  const json = known.ids.flatMap((id, i) => held[i] ?? read.get(id) ?? []);
  return serializer.list(json, { count: known.count, ...meta });
}

/** One product visible in the channel, by id or slug, as the body; 404 when it is not visible there. */
export async function getStoreProduct(
  ctx: Ctx,
  channel: PublicChannel,
  idOrSlug: string,
  { fragments }: StorefrontReadModel,
  serializer: StoreSerializer,
): Promise<Buffer> {
  const version = catalogVersionOf(ctx.actor);
  const held = version === null ? undefined : fragments.detail(ctx.shopId, channel.id, idOrSlug, version);
  if (held !== undefined) return serializer.detail(held);
  const product = await publicProduct(ctx, channel, idOrSlug);
  if (!product) throw notFound('Product');
  const [json] = fragmentsOf(ctx, channel, [product], fragments, serializer, version);
  return serializer.detail(json as Buffer);
}
