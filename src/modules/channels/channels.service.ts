/** Sales channels: lifecycle, the one default per shop, and what may change once commerce depends on them. */

import type { Static } from '@sinclair/typebox';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Ctx } from '../../platform/auth/types.js';
import { iso } from '../../platform/dates.js';
import { dropChannelDomains } from '../../platform/db/directory.js';
import { lockOwned } from '../../platform/db/lock.js';
import { isUniqueViolation, one, query, uniqueConstraintOf, withTx } from '../../platform/db/tx.js';
import { AppError, conflict, notFound } from '../../platform/errors.js';
import { runHook } from '../../platform/hooks.js';
import { newId } from '../../platform/ids.js';
import { lockShop } from '../shops/index.js';
import { dependentsOf } from './channel-dependencies.js';
import type { ChannelCreate, ChannelPatch } from './channels.schemas.js';
import { channels } from './channels.tables.js';

export type ChannelRow = typeof channels.$inferSelect;

export const channelOut = (c: ChannelRow) => ({
  id: c.id,
  name: c.name,
  slug: c.slug,
  is_default: c.isDefault,
  is_active: c.isActive,
  currency: c.currency,
  default_country: c.defaultCountry,
  allocation_strategy: c.allocationStrategy,
  auto_confirm_orders: c.autoConfirmOrders,
  allow_unpaid_orders: c.allowUnpaidOrders,
  pending_payment_ttl_hours: c.pendingPaymentTtlHours,
  path_prefix: c.pathPrefix,
  created_at: iso(c.createdAt),
  updated_at: iso(c.updatedAt),
});

export function slugify(name: string): string {
  const s = name
    .toLowerCase()
    .replace(/ä/g, 'ae')
    .replace(/ö/g, 'oe')
    .replace(/ü/g, 'ue')
    .replace(/ß/g, 'ss')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);
  return s || 'channel';
}

/** Lists the shop's channels, default first. */
export async function listChannels(ctx: Ctx) {
  return ctx.db
    .select()
    .from(channels)
    .where(eq(channels.shopId, ctx.shopId))
    .orderBy(sql`${channels.isDefault} DESC`, asc(channels.createdAt));
}

/** One channel of the shop, or 404. Other modules use it to validate a channel id. */
export async function getChannel(ctx: Pick<Ctx, 'db' | 'shopId'>, id: string): Promise<ChannelRow> {
  const [row] = await ctx.db
    .select()
    .from(channels)
    .where(and(eq(channels.id, id), eq(channels.shopId, ctx.shopId)));
  if (!row) throw notFound('Channel');
  return row;
}

function uniqueConflict(err: unknown): never {
  if (uniqueConstraintOf(err) === 'channels_prefix_uq')
    throw conflict('path_prefix_taken', 'Another channel of the shop uses this path prefix');
  throw conflict('slug_taken', 'Another channel of the shop uses this slug');
}

export type ChannelInput = Static<typeof ChannelCreate>;
export type ChannelPatchInput = Static<typeof ChannelPatch>;

/**
 * 400 unless `code` is a country the shop knows: an active shared one (ISO 3166-1) or one of its own
 * (custom). A channel's default country must be one, like the codes of its country selection.
 */
async function requireKnownCountry(ctx: Ctx, code: string, path: string): Promise<void> {
  const rows = await query<{ code: string }>(
    ctx.db,
    sql`SELECT code FROM countries WHERE is_active AND code = ${code}
        UNION SELECT code FROM shop_countries WHERE shop_id = ${ctx.shopId} AND code = ${code}`,
  );
  if (rows.length === 0) {
    throw new AppError('validation_failed', `${path} is not a known country: ${code}`, [
      { path, message: `unknown country ${code}` },
    ]);
  }
}

/**
 * Creates a channel. It is never the default (docs/storefront.md): a shop gets its default channel when it
 * is created (`createDefaultChannel`), and `set-default` moves it.
 */
export async function createChannel(ctx: Ctx, input: ChannelInput) {
  await requireKnownCountry(ctx, input.default_country, '/body/default_country');
  try {
    return one(
      await ctx.db
        .insert(channels)
        .values({
          id: newId('channel'),
          shopId: ctx.shopId,
          name: input.name,
          slug: input.slug ?? slugify(input.name),
          defaultCountry: input.default_country,
          currency: input.currency,
          pathPrefix: input.path_prefix ?? null,
          isActive: input.is_active ?? true,
          isDefault: false,
          allocationStrategy: input.allocation_strategy ?? 'priority',
          autoConfirmOrders: input.auto_confirm_orders ?? false,
          allowUnpaidOrders: input.allow_unpaid_orders ?? false,
          pendingPaymentTtlHours: input.pending_payment_ttl_hours ?? 24,
        })
        .returning(),
    );
  } catch (err) {
    if (isUniqueViolation(err)) uniqueConflict(err);
    throw err;
  }
}

/**
 * Creates the one active default channel of a new shop (docs/ARCHITECTURE.md), named after the shop, in the
 * caller's transaction (`ctx.db`), so the shop's storefront answers at once.
 */
export async function createDefaultChannel(
  ctx: Ctx,
  input: { name: string; currency: string; default_country: string },
  countryPath = '/body/country',
): Promise<ChannelRow> {
  await requireKnownCountry(ctx, input.default_country, countryPath);
  return one(
    await ctx.db
      .insert(channels)
      .values({
        id: newId('channel'),
        shopId: ctx.shopId,
        name: input.name,
        slug: slugify(input.name),
        defaultCountry: input.default_country,
        currency: input.currency,
        isActive: true,
        isDefault: true,
      })
      .returning(),
  );
}

/** Updates a channel. The currency is locked once commerce data depends on the channel. */
export async function updateChannel(ctx: Ctx, id: string, patch: ChannelPatchInput) {
  if (patch.default_country !== undefined)
    await requireKnownCountry(ctx, patch.default_country, '/body/default_country');
  try {
    return await withTx(ctx, async (t) => {
      const tx = t.db;
      const current = await lockOwned(tx, channels, ctx.shopId, id, 'Channel');
      if (patch.currency && patch.currency !== current.currency) {
        const deps = await dependentsOf(t, id, 'commerce');
        if (deps.length > 0) {
          throw conflict(
            'currency_locked',
            `The currency cannot change: ${deps.join(', ')} depend on this channel (amounts are never converted)`,
          );
        }
      }
      if (patch.is_active === false && current.isDefault) {
        throw conflict('default_channel', 'The default channel cannot be deactivated; choose another default first');
      }
      return one(
        await tx
          .update(channels)
          .set({
            ...(patch.name !== undefined ? { name: patch.name } : {}),
            ...(patch.slug !== undefined ? { slug: patch.slug } : {}),
            ...(patch.is_active !== undefined ? { isActive: patch.is_active } : {}),
            ...(patch.currency !== undefined ? { currency: patch.currency } : {}),
            ...(patch.default_country !== undefined ? { defaultCountry: patch.default_country } : {}),
            ...(patch.path_prefix !== undefined ? { pathPrefix: patch.path_prefix } : {}),
            ...(patch.allocation_strategy !== undefined ? { allocationStrategy: patch.allocation_strategy } : {}),
            ...(patch.auto_confirm_orders !== undefined ? { autoConfirmOrders: patch.auto_confirm_orders } : {}),
            ...(patch.allow_unpaid_orders !== undefined ? { allowUnpaidOrders: patch.allow_unpaid_orders } : {}),
            ...(patch.pending_payment_ttl_hours !== undefined
              ? { pendingPaymentTtlHours: patch.pending_payment_ttl_hours }
              : {}),
            updatedAt: new Date(),
          })
          .where(and(eq(channels.shopId, ctx.shopId), eq(channels.id, id)))
          .returning(),
      );
    });
  } catch (err) {
    if (isUniqueViolation(err)) uniqueConflict(err);
    throw err;
  }
}

/** Makes the channel the shop's default; the switch is one transaction, so there is always exactly one. */
export async function setDefaultChannel(ctx: Ctx, id: string) {
  return withTx(ctx, async (t) => {
    const tx = t.db;
    await lockShop(t);
    const target = await getChannel(t, id);
    if (!target.isActive) throw conflict('channel_inactive', 'An inactive channel cannot be the default');
    if (target.isDefault) return target;
    await tx
      .update(channels)
      .set({ isDefault: false, updatedAt: new Date() })
      .where(and(eq(channels.shopId, ctx.shopId), eq(channels.isDefault, true)));
    return one(
      await tx
        .update(channels)
        .set({ isDefault: true, updatedAt: new Date() })
        .where(and(eq(channels.shopId, ctx.shopId), eq(channels.id, id)))
        .returning(),
    );
  });
}

/** Deletes a channel with its domains, listings and selections, unless it is the default or referenced. */
export async function deleteChannel(ctx: Ctx, id: string) {
  await withTx(ctx, async (t) => {
    const tx = t.db;
    await lockShop(t);
    const target = await getChannel(t, id);
    if (target.isDefault) {
      throw conflict('default_channel', 'The default channel cannot be deleted; choose another default first');
    }
    const deps = await dependentsOf(t, id, 'reference');
    if (deps.length > 0) {
      throw new AppError(
        'channel_in_use',
        `The channel cannot be deleted: ${deps.join(', ')} reference it; deactivate it instead`,
      );
    }
    // employees restricted to this channel lose the restriction entry (identity listens)
    await runHook(t, 'channel.deleted', { shopId: ctx.shopId, channelId: id });
    // its domain mappings go with it (ON DELETE CASCADE); their directory rows in the same transaction
    await dropChannelDomains(tx, ctx.shopId, id);
    await tx.delete(channels).where(and(eq(channels.shopId, ctx.shopId), eq(channels.id, id)));
  });
}
