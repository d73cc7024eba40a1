/** A new shop with its owner, a first publishable key and its default channel: four modules, one transaction. */
import type { Static } from '@sinclair/typebox';
import type { Ctx } from '../../platform/auth/types.js';
import { type TxCtx, withTx } from '../../platform/db/tx.js';
import { createDefaultChannel } from '../channels/index.js';
import { createEmployee, createPublishableKey } from '../identity/index.js';
import { insertShop } from '../shops/index.js';
import type { CreateShopBody } from './platform-admin.schemas.js';

/** The default channel's currency is EUR when absent, its country DE. */
export type CreateShopInput = Static<typeof CreateShopBody>;

/**
 * Creates the shop, its owner (Argon2id), a first publishable key and its default channel, all or
 * nothing: every shop has an active default channel from its first moment (docs/decisions.md,
 * "Default channel at shop creation").
 */
export async function createShop(ctx: Ctx, input: CreateShopInput) {
  return withTx(ctx, async (t) => {
    const shop = await insertShop(t, { name: input.name, digitalAllowed: input.digital_allowed ?? false });
    // the rest belongs to the new shop
    const shopCtx: TxCtx = { ...t, shopId: shop.id };
    const owner = await createEmployee(shopCtx, {
      email: input.owner_email,
      password: input.owner_password,
      name: input.owner_name,
      role: 'owner',
    });
    const key = await createPublishableKey(shopCtx, {
      name: 'Default storefront',
      allowed_origins: input.storefront_origins ?? [],
    });
    const channel = await createDefaultChannel(shopCtx, {
      name: input.name,
      currency: input.currency ?? 'EUR',
      default_country: input.country ?? 'DE',
    });
    return { shop, owner, key, channel };
  });
}
