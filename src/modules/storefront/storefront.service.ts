/**
 * The public catalog of a storefront request: resolve the channel (docs/storefront.md), then list
 * or read the products visible in it (catalog's public view). Services take ctx first.
 */
import type { Ctx } from '../../platform/auth/types.js';
import { notFound } from '../../platform/errors.js';
import { catalogVersionOf } from '../../platform/versioned-memo.js';
import { type PublicChannel, publicProduct, publicProducts } from '../catalog/index.js';
import { resolveChannel } from '../channels/index.js';
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

/** Products visible in the channel, newest first, with the exact count. */
export async function listStoreProducts(ctx: Ctx, channel: PublicChannel, input: StoreListInput) {
  const limit = input.limit ?? DEFAULT_LIMIT;
  const offset = input.offset ?? 0;
  const page = await publicProducts(
    ctx,
    channel,
    {
      ...(input.q !== undefined ? { q: input.q } : {}),
      ...(input.category_id !== undefined ? { category_id: input.category_id } : {}),
      limit,
      offset,
    },
    catalogVersionOf(ctx.actor),
  );
  return { products: page.products, count: page.count, limit, offset };
}

/** One product visible in the channel, by id or slug; 404 when it is not visible there. */
export async function getStoreProduct(ctx: Ctx, channel: PublicChannel, idOrSlug: string) {
  const product = await publicProduct(ctx, channel, idOrSlug);
  if (!product) throw notFound('Product');
  return { product };
}
