/** A channel's domains, countries (with tax overrides) and payment methods. */

import { domainToASCII } from 'node:url';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Ctx } from '../../platform/auth/types.js';
import { iso } from '../../platform/dates.js';
import { dropDomains, registerDomain } from '../../platform/db/directory.js';
import { lockOwned } from '../../platform/db/lock.js';
import { isUniqueViolation, one, query, withTx } from '../../platform/db/tx.js';
import { AppError, conflict, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { DEFAULT_PAYMENT_METHODS } from './channels.reference.js';
import { getChannel } from './channels.service.js';
import { channelCountries, channelDomains, channels, shopCountries, shopPaymentSettings } from './channels.tables.js';

// ---- domains ---------------------------------------------------------------------------------

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * Normalises a hostname: lowercase, IDN to punycode, trailing dot removed. A scheme, port, path,
 * user info or an IP address is refused: a mapping names a host only.
 */
export function normalizeDomain(raw: string): string {
  const invalid = (message: string) =>
    new AppError('validation_failed', `Invalid domain: ${message}`, [{ path: '/body/domain', message }]);
  const trimmed = raw.trim();
  if (/[/:?#@\s]/.test(trimmed)) throw invalid('give a bare hostname (no scheme, port, path or spaces)');
  const ascii = domainToASCII(trimmed.replace(/\.$/, '').toLowerCase());
  if (!ascii) throw invalid('is not a valid hostname');
  const labels = ascii.split('.');
  if (labels.length < 2 || ascii.length > 253 || !labels.every((l) => LABEL.test(l))) {
    throw invalid('is not a valid hostname');
  }
  if (/^\d+$/.test(labels[labels.length - 1] as string)) throw invalid('IP addresses cannot be mapped');
  return ascii;
}

type DomainRow = typeof channelDomains.$inferSelect;
export const domainOut = (d: DomainRow) => ({
  id: d.id,
  channel_id: d.channelId,
  domain: d.domain,
  created_at: iso(d.createdAt),
});

/** The number of domains per channel of the shop (channels without a domain are absent). */
export async function domainCounts(ctx: Pick<Ctx, 'db' | 'shopId'>): Promise<Map<string, number>> {
  const rows = await query<{ channel_id: string; n: number | string }>(
    ctx.db,
    sql`SELECT channel_id, count(*)::int AS n FROM channel_domains WHERE shop_id = ${ctx.shopId} GROUP BY channel_id`,
  );
  return new Map(rows.map((r) => [r.channel_id, Number(r.n)]));
}

export async function listDomains(ctx: Ctx, channelId: string) {
  await getChannel(ctx, channelId);
  return ctx.db
    .select()
    .from(channelDomains)
    .where(and(eq(channelDomains.shopId, ctx.shopId), eq(channelDomains.channelId, channelId)))
    .orderBy(asc(channelDomains.createdAt));
}

/**
 * Maps a domain to the channel. A host maps to one channel of one shop: the domain directory's
 * primary key (across every shop) decides races, written in the same transaction as the mapping.
 */
export async function addDomain(ctx: Ctx, channelId: string, rawDomain: string) {
  const domain = normalizeDomain(rawDomain);
  await getChannel(ctx, channelId);
  try {
    return await withTx(ctx, async (t) => {
      const row = one(
        await t.db
          .insert(channelDomains)
          .values({ id: newId('domain'), shopId: ctx.shopId, channelId, domain })
          .returning(),
      );
      await registerDomain(t.db, { domain, shopId: ctx.shopId, channelId, rowId: row.id });
      return row;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('domain_taken', `${domain} is already mapped to a channel`);
    throw err;
  }
}

/** Removes a domain mapping of the channel and its directory row (the host is free for any shop again). */
export async function removeDomain(ctx: Ctx, channelId: string, domainId: string) {
  await withTx(ctx, async (t) => {
    const rows = await t.db
      .delete(channelDomains)
      .where(
        and(
          eq(channelDomains.id, domainId),
          eq(channelDomains.channelId, channelId),
          eq(channelDomains.shopId, ctx.shopId),
        ),
      )
      .returning({ domain: channelDomains.domain });
    if (rows.length === 0) throw notFound('Domain mapping');
    await dropDomains(
      t.db,
      ctx.shopId,
      rows.map((r) => r.domain),
    );
  });
}

// ---- countries -------------------------------------------------------------------------------

interface EffectiveCountryRow {
  code: string;
  base_name: string;
  base_currency: string | null;
  base_tax_rate: number | null;
  base_food_tax_rate: number | null;
  base_books_tax_rate: number | null;
  is_custom: boolean;
  is_eu: boolean;
  selected: boolean | null;
  position: number | null;
  o_name: string | null;
  o_currency: string | null;
  o_tax_rate: number | null;
  o_food_tax_rate: number | null;
  o_books_tax_rate: number | null;
}

const pick = <T>(override: T | null, base: T | null): T | null => (override !== null ? override : base);

function countryOut(r: EffectiveCountryRow) {
  return {
    code: r.code,
    name: pick(r.o_name, r.base_name) as string,
    currency: pick(r.o_currency, r.base_currency),
    tax_rate: pick(r.o_tax_rate, r.base_tax_rate),
    food_tax_rate: pick(r.o_food_tax_rate, r.base_food_tax_rate),
    books_tax_rate: pick(r.o_books_tax_rate, r.base_books_tax_rate),
    is_custom: r.is_custom,
    /** EU member state (shared country table; shop-owned countries are not). */
    is_eu: r.is_eu === true,
    overrides: {
      name: r.o_name,
      currency: r.o_currency,
      tax_rate: r.o_tax_rate,
      food_tax_rate: r.o_food_tax_rate,
      books_tax_rate: r.o_books_tax_rate,
    },
  };
}
export type EffectiveCountry = ReturnType<typeof countryOut>;

/** Every country the shop knows (active shared ones and its own), with the channel's overrides. */
async function effectiveCountries(ctx: Pick<Ctx, 'db' | 'shopId'>, channelId: string, code?: string) {
  return query<EffectiveCountryRow & { has_selection: boolean }>(
    ctx.db,
    sql`WITH base AS (
          SELECT code, name, currency, tax_rate, food_tax_rate, books_tax_rate, false AS is_custom, is_eu
          FROM countries WHERE is_active ${code ? sql`AND code = ${code}` : sql``}
          UNION ALL
          SELECT code, name, currency, tax_rate, food_tax_rate, books_tax_rate, true AS is_custom, false AS is_eu
          FROM shop_countries WHERE shop_id = ${ctx.shopId} ${code ? sql`AND code = ${code}` : sql``})
        SELECT b.code, b.name AS base_name, b.currency AS base_currency, b.tax_rate AS base_tax_rate,
               b.food_tax_rate AS base_food_tax_rate, b.books_tax_rate AS base_books_tax_rate, b.is_custom, b.is_eu,
               cc.selected, cc.position, cc.name AS o_name, cc.currency AS o_currency, cc.tax_rate AS o_tax_rate,
               cc.food_tax_rate AS o_food_tax_rate, cc.books_tax_rate AS o_books_tax_rate,
               EXISTS (SELECT 1 FROM channel_countries s
                       WHERE s.shop_id = ${ctx.shopId} AND s.channel_id = ${channelId} AND s.selected) AS has_selection
        FROM base b
        LEFT JOIN channel_countries cc
          ON cc.shop_id = ${ctx.shopId} AND cc.channel_id = ${channelId} AND cc.code = b.code
        ${code ? sql`WHERE b.code = ${code}` : sql``}
        ORDER BY cc.position NULLS LAST, b.code`,
  );
}

/** The channel's countries: its selection, or every active country when the selection is empty. */
export async function listChannelCountries(ctx: Pick<Ctx, 'db' | 'shopId'>, channelId: string) {
  await getChannel(ctx, channelId);
  const rows = await effectiveCountries(ctx, channelId);
  const selected = rows.filter((r) => r.selected);
  const inherited = selected.length === 0;
  return { countries: (inherited ? rows : selected).map(countryOut), inherited };
}

/** One country as the channel sees it (for pricing and tax), or null when the channel does not sell there. */
export async function channelCountry(
  ctx: Pick<Ctx, 'db' | 'shopId'>,
  channelId: string,
  code: string,
): Promise<EffectiveCountry | null> {
  // one targeted query: the country's effective values and whether the channel sells there
  const [row] = await effectiveCountries(ctx, channelId, code);
  if (!row) return null;
  if (row.has_selection && !row.selected) return null;
  return countryOut(row);
}

/**
 * A country's rates as the channel sees them, whether or not the channel sells there (the
 * seller's own German rates price every order, docs/finance.md); null when the country is unknown.
 */
export async function channelCountryRates(
  ctx: Pick<Ctx, 'db' | 'shopId'>,
  channelId: string,
  code: string,
): Promise<EffectiveCountry | null> {
  const [row] = await effectiveCountries(ctx, channelId, code);
  return row ? countryOut(row) : null;
}

async function knownCodes(ctx: Ctx, codes: string[]): Promise<Set<string>> {
  if (codes.length === 0) return new Set();
  const list = sql.join(
    codes.map((c) => sql`${c}`),
    sql`, `,
  );
  const rows = await query<{ code: string }>(
    ctx.db,
    sql`SELECT code FROM countries WHERE is_active AND code IN (${list})
        UNION SELECT code FROM shop_countries WHERE shop_id = ${ctx.shopId} AND code IN (${list})`,
  );
  return new Set(rows.map((r) => r.code));
}

/** Replaces the channel's country selection (order kept); an empty list means all active countries. */
export async function replaceCountrySelection(ctx: Ctx, channelId: string, codes: string[]) {
  await getChannel(ctx, channelId);
  const known = await knownCodes(ctx, codes);
  const errors = codes
    .map((c, i) => ({ c, i }))
    .filter(({ c }) => !known.has(c))
    .map(({ c, i }) => ({ path: `/body/country_codes/${i}`, message: `unknown country ${c}` }));
  if (errors.length > 0) throw new AppError('validation_failed', 'country_codes holds unknown countries', errors);
  await withTx(ctx.db, async (tx) => {
    // one replacement of a channel's selection at a time: concurrent ones deadlocked on PostgreSQL
    await lockOwned(tx, channels, ctx.shopId, channelId, 'Channel');
    await tx
      .update(channelCountries)
      .set({ selected: false, position: 0 })
      .where(and(eq(channelCountries.shopId, ctx.shopId), eq(channelCountries.channelId, channelId)));
    for (const [i, code] of codes.entries()) {
      await tx
        .insert(channelCountries)
        .values({ shopId: ctx.shopId, channelId, code, selected: true, position: i })
        .onConflictDoUpdate({
          target: [channelCountries.shopId, channelCountries.channelId, channelCountries.code],
          set: { selected: true, position: i },
        });
    }
    // rows that are neither selected nor carry an override are noise
    await tx.execute(
      sql`DELETE FROM channel_countries WHERE shop_id = ${ctx.shopId} AND channel_id = ${channelId} AND NOT selected
            AND name IS NULL AND currency IS NULL AND tax_rate IS NULL AND food_tax_rate IS NULL AND books_tax_rate IS NULL`,
    );
  });
  return listChannelCountries(ctx, channelId);
}

export interface CountryOverrides {
  name?: string | null;
  currency?: string | null;
  tax_rate?: number | null;
  food_tax_rate?: number | null;
  books_tax_rate?: number | null;
}

const round5 = (v: number | null | undefined) =>
  v === null || v === undefined ? v : Math.round(v * 100_000) / 100_000;

/** Sets or removes (null) the channel's overrides for one country; absent fields stay as they are. */
export async function patchChannelCountry(ctx: Ctx, channelId: string, code: string, patch: CountryOverrides) {
  await getChannel(ctx, channelId);
  if (!(await knownCodes(ctx, [code])).has(code)) throw notFound('Country');
  const set = {
    ...(patch.name !== undefined ? { name: patch.name } : {}),
    ...(patch.currency !== undefined ? { currency: patch.currency } : {}),
    ...(patch.tax_rate !== undefined ? { taxRate: round5(patch.tax_rate) } : {}),
    ...(patch.food_tax_rate !== undefined ? { foodTaxRate: round5(patch.food_tax_rate) } : {}),
    ...(patch.books_tax_rate !== undefined ? { booksTaxRate: round5(patch.books_tax_rate) } : {}),
  };
  await ctx.db
    .insert(channelCountries)
    .values({ shopId: ctx.shopId, channelId, code, selected: false, ...set })
    .onConflictDoUpdate({
      target: [channelCountries.shopId, channelCountries.channelId, channelCountries.code],
      set: Object.keys(set).length > 0 ? set : { code },
    });
  const row = one(await effectiveCountries(ctx, channelId, code));
  return countryOut(row);
}

/** Adds a shop-owned country (a code the shared list does not have, e.g. XK) to the shop and selects it in the channel. */
export async function addCustomCountry(
  ctx: Ctx,
  channelId: string,
  input: CountryOverrides & { code: string; name: string },
) {
  await getChannel(ctx, channelId);
  const shared = await query(ctx.db, sql`SELECT 1 FROM countries WHERE code = ${input.code}`);
  if (shared.length > 0) {
    throw conflict('country_exists', `${input.code} is a shared country; override its values with PATCH instead`);
  }
  await withTx(ctx.db, async (tx) => {
    try {
      await tx.insert(shopCountries).values({
        shopId: ctx.shopId,
        code: input.code,
        name: input.name,
        currency: input.currency ?? null,
        taxRate: round5(input.tax_rate) ?? null,
        foodTaxRate: round5(input.food_tax_rate) ?? null,
        booksTaxRate: round5(input.books_tax_rate) ?? null,
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('country_exists', `The shop already has a country ${input.code}`);
      throw err;
    }
    // a channel with an explicit selection gets the new country added to it
    const selected = await query(
      tx,
      sql`SELECT 1 FROM channel_countries WHERE shop_id = ${ctx.shopId} AND channel_id = ${channelId} AND selected LIMIT 1`,
    );
    if (selected.length > 0) {
      await tx
        .insert(channelCountries)
        .values({ shopId: ctx.shopId, channelId, code: input.code, selected: true, position: 10_000 })
        .onConflictDoUpdate({
          target: [channelCountries.shopId, channelCountries.channelId, channelCountries.code],
          set: { selected: true },
        });
    }
  });
  const row = one(await effectiveCountries(ctx, channelId, input.code));
  return countryOut(row);
}

/**
 * Deletes a shop-owned country and its assignments in every channel of the shop; 409 `in_use`
 * while a channel has it as default country or as the only country of its selection.
 */
export async function deleteCustomCountry(ctx: Ctx, channelId: string, code: string) {
  await getChannel(ctx, channelId);
  await withTx(ctx.db, async (tx) => {
    const rows = await tx
      .delete(shopCountries)
      .where(and(eq(shopCountries.shopId, ctx.shopId), eq(shopCountries.code, code)))
      .returning({ code: shopCountries.code });
    if (rows.length === 0) {
      const shared = await query(tx, sql`SELECT 1 FROM countries WHERE code = ${code}`);
      if (shared.length > 0) {
        throw conflict(
          'shared_country',
          `${code} is a shared country and cannot be deleted; remove it from the selection instead`,
        );
      }
      throw notFound('Custom country');
    }
    // a channel must not be left with a country that no longer exists, nor with an empty
    // selection (which would mean every country)
    const homes = await query<{ name: string }>(
      tx,
      sql`SELECT name FROM channels WHERE shop_id = ${ctx.shopId} AND default_country = ${code} ORDER BY name`,
    );
    if (homes.length > 0) {
      throw conflict(
        'in_use',
        `${code} is the default country of channel ${homes.map((c) => c.name).join(', ')}; choose another default country first`,
      );
    }
    const onlyIn = await query<{ name: string }>(
      tx,
      sql`SELECT c.name FROM channel_countries cc JOIN channels c ON c.id = cc.channel_id AND c.shop_id = cc.shop_id
          WHERE cc.shop_id = ${ctx.shopId} AND cc.code = ${code} AND cc.selected
            AND NOT EXISTS (SELECT 1 FROM channel_countries o WHERE o.shop_id = cc.shop_id
                              AND o.channel_id = cc.channel_id AND o.selected AND o.code <> ${code})
          ORDER BY c.name`,
    );
    if (onlyIn.length > 0) {
      throw conflict(
        'in_use',
        `${code} is the only country channel ${onlyIn.map((c) => c.name).join(', ')} sells to; select another country there first`,
      );
    }
    await tx
      .delete(channelCountries)
      .where(and(eq(channelCountries.shopId, ctx.shopId), eq(channelCountries.code, code)));
  });
}

// ---- payment methods -------------------------------------------------------------------------

export async function shopPaymentMethods(
  ctx: Pick<Ctx, 'db' | 'shopId'>,
): Promise<{ codes: string[]; configured: boolean }> {
  const [row] = await ctx.db.select().from(shopPaymentSettings).where(eq(shopPaymentSettings.shopId, ctx.shopId));
  return row && row.methodCodes.length > 0
    ? { codes: row.methodCodes, configured: true }
    : { codes: DEFAULT_PAYMENT_METHODS, configured: false };
}

export async function setShopPaymentMethods(ctx: Ctx, codes: string[]) {
  await ctx.db
    .insert(shopPaymentSettings)
    .values({ shopId: ctx.shopId, methodCodes: codes })
    .onConflictDoUpdate({ target: shopPaymentSettings.shopId, set: { methodCodes: codes, updatedAt: new Date() } });
  return { method_codes: (await shopPaymentMethods(ctx)).codes };
}

/** The channel's selection, and what applies (its own, or the shop's when empty). */
export async function channelPaymentMethods(ctx: Pick<Ctx, 'db' | 'shopId'>, channelId: string) {
  const channel = await getChannel(ctx, channelId);
  const own = channel.paymentMethodCodes;
  const inherited = own.length === 0;
  return {
    method_codes: own,
    inherited,
    effective_method_codes: inherited ? (await shopPaymentMethods(ctx)).codes : own,
  };
}

export async function setChannelPaymentMethods(ctx: Ctx, channelId: string, codes: string[]) {
  await getChannel(ctx, channelId);
  await ctx.db
    .update(channels)
    .set({ paymentMethodCodes: codes, updatedAt: new Date() })
    .where(and(eq(channels.id, channelId), eq(channels.shopId, ctx.shopId)));
  return channelPaymentMethods(ctx, channelId);
}
