/**
 * Checkout settings of a shop (issue 16): the most units one checkout line may hold, read by
 * session creation and set by the shop's managers.
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
  max_line_quantity: Type.Integer({ description: 'The most units one checkout line may hold (default 20)' }),
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

/** Refuses (400 `quantity_limit`, naming each line) a cart with a line above the shop's maximum. */
export async function enforceLineQuantity(ctx: Ctx, items: { quantity: number }[]): Promise<void> {
  const max = await maxLineQuantities.through(ctx.shopId, catalogVersionOf(ctx.actor), () => maxLineQuantity(ctx));
  const errors: FieldError[] = [];
  items.forEach((item, i) => {
    if (item.quantity > max) errors.push({ path: `/body/items/${i}/quantity`, message: `must be at most ${max}` });
  });
  if (errors.length > 0) {
    throw new AppError('quantity_limit', `A checkout line may hold at most ${max} units`, errors);
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
    async (request) => ({ max_line_quantity: await maxLineQuantity(request.ctx) }),
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
      return { max_line_quantity };
    },
  );
}
