/** Shipping methods: admin management, the storefront's choice for a country, and checkout's lookup. */

import type { Static } from '@sinclair/typebox';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Ctx } from '../../platform/auth/types.js';
import { iso } from '../../platform/dates.js';
import { one } from '../../platform/db/query.js';
import { notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import type { ShippingMethodCreate, ShippingMethodPatch } from './shipping.schemas.js';
import { shippingMethods } from './shipping.tables.js';

export type ShippingMethodRow = typeof shippingMethods.$inferSelect;

export type ShippingMethodInput = Static<typeof ShippingMethodCreate>;
export type ShippingMethodPatchInput = Static<typeof ShippingMethodPatch>;

/** A shipping method as the API shows it (and as checkout receives it from findShippingMethod). */
export interface ShippingMethod {
  id: string;
  name: string;
  price_cents: number;
  countries: string[];
  is_active: boolean;
  created_at: string;
  updated_at: string;
}

export const shippingMethodOut = (m: ShippingMethodRow): ShippingMethod => ({
  id: m.id,
  name: m.name,
  price_cents: m.priceCents,
  countries: m.countries,
  is_active: m.isActive,
  created_at: iso(m.createdAt),
  updated_at: iso(m.updatedAt),
});

export const storeShippingMethodOut = (m: ShippingMethodRow) => ({
  id: m.id,
  name: m.name,
  price_cents: m.priceCents,
});

/** `? = ANY(countries)` or an empty list (= every country). */
const servesCountry = (country: string) =>
  sql`(cardinality(${shippingMethods.countries}) = 0 OR ${country} = ANY(${shippingMethods.countries}))`;

export async function listShippingMethods(ctx: Ctx): Promise<ShippingMethodRow[]> {
  return ctx.db
    .select()
    .from(shippingMethods)
    .where(eq(shippingMethods.shopId, ctx.shopId))
    .orderBy(asc(shippingMethods.createdAt), asc(shippingMethods.id));
}

export async function createShippingMethod(ctx: Ctx, input: ShippingMethodInput): Promise<ShippingMethodRow> {
  return one(
    await ctx.db
      .insert(shippingMethods)
      .values({
        id: newId('shippingMethod'),
        shopId: ctx.shopId,
        name: input.name,
        priceCents: input.price_cents,
        countries: input.countries ?? [],
        isActive: input.is_active ?? true,
      })
      .returning(),
  );
}

export async function updateShippingMethod(
  ctx: Ctx,
  id: string,
  patch: ShippingMethodPatchInput,
): Promise<ShippingMethodRow> {
  const [row] = await ctx.db
    .update(shippingMethods)
    .set({
      ...(patch.name !== undefined ? { name: patch.name } : {}),
      ...(patch.price_cents !== undefined ? { priceCents: patch.price_cents } : {}),
      ...(patch.countries !== undefined ? { countries: patch.countries } : {}),
      ...(patch.is_active !== undefined ? { isActive: patch.is_active } : {}),
      updatedAt: sql`now()`,
    })
    .where(and(eq(shippingMethods.id, id), eq(shippingMethods.shopId, ctx.shopId)))
    .returning();
  if (!row) throw notFound('Shipping method');
  return row;
}

/** Deletes the method. Orders keep their own copy of name and price, so history is unaffected. */
export async function deleteShippingMethod(ctx: Ctx, id: string): Promise<void> {
  const rows = await ctx.db
    .delete(shippingMethods)
    .where(and(eq(shippingMethods.id, id), eq(shippingMethods.shopId, ctx.shopId)))
    .returning({ id: shippingMethods.id });
  if (rows.length === 0) throw notFound('Shipping method');
}

/** Active methods that ship to `country`, cheapest first. */
export async function storeShippingMethods(ctx: Ctx, country: string): Promise<ShippingMethodRow[]> {
  return ctx.db
    .select()
    .from(shippingMethods)
    .where(and(eq(shippingMethods.shopId, ctx.shopId), eq(shippingMethods.isActive, true), servesCountry(country)))
    .orderBy(asc(shippingMethods.priceCents), asc(shippingMethods.name), asc(shippingMethods.id));
}

/**
 * The method (API shape: `price_cents`, …) if it belongs to the shop, is active and ships to
 * `country`; else null. Checkout uses it to price the shipping line.
 */
export async function findShippingMethod(
  ctx: Pick<Ctx, 'db' | 'shopId'>,
  id: string,
  country: string,
): Promise<ShippingMethod | null> {
  const [row] = await ctx.db
    .select()
    .from(shippingMethods)
    .where(
      and(
        eq(shippingMethods.id, id),
        eq(shippingMethods.shopId, ctx.shopId),
        eq(shippingMethods.isActive, true),
        servesCountry(country),
      ),
    );
  return row ? shippingMethodOut(row) : null;
}
