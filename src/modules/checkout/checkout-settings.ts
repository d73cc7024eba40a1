/**
 * Checkout settings of a shop (issue 16): the most units of one product and variant a checkout
 * may hold (summed over its lines, issue 26), read by session creation and set by the shop's managers.
 */
import { Type } from '@sinclair/typebox';
import { configureShop } from '../../platform/auth/presets.js';
import type { Ctx } from '../../platform/auth/types.js';
import { AppError, type FieldError } from '../../platform/errors.js';
import { Body } from '../../platform/http/schemas.js';
import type { TypedApp } from '../../platform/http/typed-app.js';
import { catalogVersionOf, VersionedMemo } from '../../platform/versioned-memo.js';
import { setShopMaxLineQuantity, shopMaxLineQuantity } from '../shops/index.js';

export const CheckoutSettingsSchema = Type.Object({
  max_line_quantity: Type.Integer({
    description: 'The most units of one product and variant a checkout may hold, summed over its lines (default 20)',
  }),
  hosted_reservation_minutes: Type.Integer({
    description:
      'Read-only: minutes a hosted checkout session holds its stock (server setting CHECKOUT_RESERVATION_MINUTES); an unpaid direct-flow order holds it for its channel’s pending_payment_ttl_hours',
  }),
});

const CheckoutSettingsBody = Body({
  max_line_quantity: Type.Integer({ minimum: 1, maximum: 1000 }),
});

async function maxLineQuantity(ctx: Ctx): Promise<number> {
  return (await shopMaxLineQuantity(ctx)) ?? 20;
}

/**
 * The maximum per shop and catalog version: a change of `max_line_quantity` bumps the version
 * (migration 0019_issue20_settings_version), so the next session sees it in every process.
 */
const maxLineQuantities = new VersionedMemo<number>();

/** A cart line as far as the maximum is concerned: what it buys and how many. */
export interface QuantityLine {
  product_id: string;
  variant_id?: string | null;
  quantity: number;
}

/**
 * The lines that pass `max` units of one product and variant, counting every line of the cart
 * (issue 26: five lines of 20 must not hold 100). A line is named once the running total of its
 * product and variant, itself included, is above the maximum.
 */
export function linesOverMaximum(items: readonly QuantityLine[], max: number): FieldError[] {
  const totals = new Map<string, number>();
  const errors: FieldError[] = [];
  items.forEach((item, i) => {
    const key = `${item.product_id}\u0000${item.variant_id ?? ''}`;
    const total = (totals.get(key) ?? 0) + item.quantity;
    totals.set(key, total);
    if (total <= max) return;
    errors.push({
      path: `/body/items/${i}/quantity`,
      message:
        item.quantity > max
          ? `must be at most ${max}`
          : `must be at most ${max} units of this product and variant across all lines (${total} with the lines before)`,
    });
  });
  return errors;
}

/**
 * Refuses (400 `quantity_limit`, naming each line over it) a cart holding more than the shop's
 * maximum of one product and variant, summed over its lines. The route checks the items as sent;
 * the service checks the priced lines again, where a line without `variant_id` has become the
 * product's default variant (so `{product}` and `{product, default variant}` count together).
 */
export async function enforceLineQuantity(ctx: Ctx, items: readonly QuantityLine[]): Promise<void> {
  const max = await maxLineQuantities.through(ctx.shopId, catalogVersionOf(ctx.actor), () => maxLineQuantity(ctx));
  const errors = linesOverMaximum(items, max);
  if (errors.length > 0) {
    throw new AppError('quantity_limit', `A checkout may hold at most ${max} units of one product and variant`, errors);
  }
}

const tags = ['checkout'];

export function checkoutSettingsRoutes(app: TypedApp): void {
  app.get(
    '/api/admin/settings/checkout',
    {
      config: configureShop,
      schema: { tags, summary: "The shop's checkout settings", response: { 200: CheckoutSettingsSchema } },
    },
    async (request) => ({
      max_line_quantity: await maxLineQuantity(request.ctx),
      hosted_reservation_minutes: request.ctx.config.checkoutReservationMinutes,
    }),
  );
  app.put(
    '/api/admin/settings/checkout',
    {
      config: configureShop,
      schema: {
        tags,
        summary: "Set the shop's checkout settings (owner or admin)",
        body: CheckoutSettingsBody,
        response: { 200: CheckoutSettingsSchema },
      },
    },
    async (request) => {
      const { max_line_quantity } = request.body;
      await setShopMaxLineQuantity(request.ctx, max_line_quantity, new Date());
      return { max_line_quantity, hosted_reservation_minutes: request.ctx.config.checkoutReservationMinutes };
    },
  );
}
