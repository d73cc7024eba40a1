/** A new shop with its owner, a first publishable key and its default channel: four modules, one transaction. */
import type { Ctx } from '../../platform/auth/types.js';
import { type TxCtx, withTx } from '../../platform/db/tx.js';
import { createDefaultChannel } from '../channels/index.js';
import { createEmployee, createPublishableKey } from '../identity/index.js';
import { insertShop } from '../shops/index.js';

export interface CreateShopInput {
  name: string;
  owner_email: string;
  owner_password: string;
  owner_name?: string;
  digital_allowed?: boolean;
  storefront_origins?: string[];
  /** The default channel's currency (EUR when absent) and country (DE). */
  currency?: string;
  country?: string;
}

/**
 * Creates the shop, its owner (Argon2id), a first publishable key and its default channel
 * (DESIGN §2), all or nothing.
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
