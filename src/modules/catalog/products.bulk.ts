/**
 * Bulk actions on a selection of products (docs/catalog.md, "Bulk actions"). Each product goes
 * through the same service as its single write — `updateProduct` for the status and the
 * references, `upsertListing` / `removeListing` for channels — so the role, the token write
 * policy, vendor and reference checks and the channel restriction apply per product, and each
 * product is a transaction of its own: one refused product does not undo the others. Every
 * committed write bumps the catalog version (triggers), so the storefront sees it at once.
 */
import type { Ctx } from '../../platform/auth/types.js';
import { withTx } from '../../platform/db/tx.js';
import { AppError, invalidField } from '../../platform/errors.js';
import { getChannel } from '../channels/index.js';
import { productListedInChannels } from './catalog.queries.js';
import type { BulkAction, BulkResultOut, ProductBulkInput, ProductPatchInput } from './catalog.schemas.js';
import { removeListing, upsertListing } from './listings.service.js';
import { lockReferences } from './products.repo.js';
import { updateProduct } from './products.write.js';

/** The body field each action needs; the others must be absent. */
const FIELD_OF: Record<BulkAction, 'category_id' | 'brand_id' | 'supplier_id' | 'channel_id' | null> = {
  publish: null,
  archive: null,
  set_category: 'category_id',
  set_brand: 'brand_id',
  set_supplier: 'supplier_id',
  add_to_channel: 'channel_id',
  remove_from_channel: 'channel_id',
};
const FIELDS = ['category_id', 'brand_id', 'supplier_id', 'channel_id'] as const;

/** Channel ids the caller is restricted to; null = the whole shop. */
const restrictedTo = (ctx: Ctx): string[] | null =>
  ctx.actor?.kind === 'admin' && ctx.actor.channelRestricted ? ctx.actor.channelIds : null;

/** 400 for a body whose fields do not fit the action, or names a record the shop does not have. */
async function checkBody(ctx: Ctx, input: ProductBulkInput): Promise<void> {
  const needed = FIELD_OF[input.action];
  const errors = FIELDS.flatMap((field) => {
    if (field === needed && input[field] === undefined) {
      return [{ path: `/body/${field}`, message: `is required for action ${input.action}` }];
    }
    if (field !== needed && input[field] !== undefined) {
      return [{ path: `/body/${field}`, message: `is not used by action ${input.action}` }];
    }
    return [];
  });
  if (errors.length > 0) {
    throw new AppError('validation_failed', errors.map((e) => `${e.path.slice(6)} ${e.message}`).join('; '), errors);
  }
  if (needed === 'channel_id') {
    const channelId = input.channel_id as string;
    const restricted = restrictedTo(ctx);
    // a channel outside a restricted employee's reach is answered like a missing one
    const reachable = restricted === null || restricted.includes(channelId);
    const exists =
      reachable &&
      (await getChannel(ctx, channelId).then(
        () => true,
        (err) => {
          if (err instanceof AppError && err.code === 'not_found') return false;
          throw err;
        },
      ));
    if (!exists) throw invalidField('/body/channel_id', 'is not a channel of this shop');
  } else if (needed !== null && input[needed]) {
    // the single write checks again, under a lock, in each product's transaction
    await withTx(ctx, (t) => lockReferences(t, { [needed]: input[needed] }));
  }
}

/** What one product's single write is. */
function writeOne(ctx: Ctx, id: string, input: ProductBulkInput): Promise<unknown> {
  const patch = (body: ProductPatchInput) => updateProduct(ctx, id, body);
  switch (input.action) {
    case 'publish':
      return patch({ status: 'published' });
    case 'archive':
      return patch({ status: 'archived' });
    case 'set_category':
      return patch({ category_id: input.category_id ?? null });
    case 'set_brand':
      return patch({ brand_id: input.brand_id ?? null });
    case 'set_supplier':
      return patch({ supplier_id: input.supplier_id ?? null });
    case 'add_to_channel':
      return upsertListing(ctx, id, input.channel_id as string, { is_published: true });
    case 'remove_from_channel':
      return removeListing(ctx, id, input.channel_id as string);
  }
}

/**
 * Applies the action to each product in turn (in the order given) and reports each outcome: the
 * code, detail and field errors the single write would have answered. An error that is not an
 * AppError (a fault, not a refusal) is not swallowed.
 */
export async function bulkProducts(ctx: Ctx, input: ProductBulkInput) {
  await checkBody(ctx, input);
  const restricted = restrictedTo(ctx);
  // like the single routes: a restricted employee reaches a product listed in one of their
  // channels; listing writes are bounded by the channel (checked above)
  const productBound = restricted !== null && FIELD_OF[input.action] !== 'channel_id';
  const results: BulkResultOut[] = [];
  for (const id of input.ids) {
    try {
      if (productBound && !(restricted.length > 0 && (await productListedInChannels(ctx, id, restricted)))) {
        throw new AppError('not_found', 'Product not found');
      }
      await writeOne(ctx, id, input);
      results.push({ id, ok: true });
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      results.push({
        id,
        ok: false,
        code: err.code,
        detail: err.detail,
        ...(err.errors ? { errors: err.errors } : {}),
      });
    }
  }
  const succeeded = results.filter((r) => r.ok).length;
  return { results, succeeded, failed: results.length - succeeded };
}
