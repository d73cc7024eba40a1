/**
 * The built-in storefront (docs/storefront.md, "The built-in storefront"): the shop setting that
 * names the publishable key the pages at /shop/ use, and the public bootstrap read those pages make
 * first. The bootstrap finds the shop as spec §4.5 rule 3 finds channels: the request's host
 * against the channel domain mappings; else, on localhost or PUBLIC_URL's host, the oldest shop
 * with a storefront key (the demo shop). Publishable keys are public by design and identity keeps
 * them in full, so the setting names the key and the bootstrap hands out its text
 * (docs/decisions.md, "The storefront's publishable key").
 */
import { Type } from '@sinclair/typebox';
import { asc, eq, isNotNull } from 'drizzle-orm';
import { normalizeOrigin } from '../../config.js';
import { configureShop, publicRoute, storefrontKey } from '../../platform/auth/presets.js';
import type { Ctx } from '../../platform/auth/types.js';
import { iso } from '../../platform/dates.js';
import { AppError, notFound } from '../../platform/errors.js';
import { Body, Nullable, Timestamp } from '../../platform/http/schemas.js';
import type { TypedApp } from '../../platform/http/typed-app.js';
import type { AppDeps } from '../../platform/module.js';
import { storeCategories } from '../catalog/index.js';
import { shopOfDomain } from '../channels/index.js';
import { plansOfShop } from '../digital/index.js';
import { livePublishableKey } from '../identity/index.js';
import { shopName } from '../shops/index.js';
import { storefrontSettings } from './storefront.tables.js';

const tags = ['storefront'];

const OfferedPlanSchema = Type.Object({
  id: Type.String(),
  product_id: Type.String(),
  name: Type.String(),
  price_cents: Type.Integer({ description: "The plan's price as configured (gross for consumers)" }),
  currency: Type.String(),
  interval_unit: Type.String(),
  interval_count: Type.Integer(),
  trial_days: Type.Integer(),
});

export const StorefrontSettingsSchema = Type.Object({
  publishable_key_id: Nullable(Type.String({ description: 'The key the pages at /shop/ send; null: none' })),
  offered_plan_ids: Type.Array(Type.String(), {
    description: "The subscription plans offered on their products' pages (no public plan list exists)",
  }),
  allowed_origins: Type.Array(Type.String(), { description: "The named key's origin allowlist" }),
  updated_at: Nullable(Timestamp),
});
export const StorefrontSettingsBody = Body({
  publishable_key_id: Nullable(Type.String({ minLength: 1, maxLength: 64 })),
  offered_plan_ids: Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 50, uniqueItems: true }),
  ),
});

export const StorefrontBootstrapSchema = Type.Object({
  shop_name: Type.String(),
  publishable_key: Type.String({ description: 'Public by design: send it as Authorization: Bearer on /api/store/*' }),
  origin_allowed: Type.Boolean({ description: "Whether this page's origin is on the key's allowlist" }),
  offered_plans: Type.Array(OfferedPlanSchema, {
    description: "The active plans the shop offers in this storefront (its settings), for their products' pages",
  }),
});

type ShopCtx = Pick<Ctx, 'db' | 'shopId'>;

export async function getStorefrontSettings(ctx: ShopCtx) {
  const [row] = await ctx.db.select().from(storefrontSettings).where(eq(storefrontSettings.shopId, ctx.shopId));
  const key = row?.publishableKeyId ? await livePublishableKey(ctx, row.publishableKeyId) : null;
  return {
    publishable_key_id: key?.id ?? null,
    offered_plan_ids: row?.offeredPlanIds ?? [],
    allowed_origins: key?.allowed_origins ?? [],
    updated_at: row ? iso(row.updatedAt) : null,
  };
}

/**
 * Names the storefront's key (a live publishable key of this shop) and, when given, the plans it
 * offers (plans of this shop); else 400 at the field, changing nothing.
 */
export async function setStorefrontSettings(
  ctx: ShopCtx,
  input: { publishable_key_id: string | null; offered_plan_ids?: string[] | undefined },
  now: Date,
) {
  const errors: { path: string; message: string }[] = [];
  if (input.publishable_key_id !== null && !(await livePublishableKey(ctx, input.publishable_key_id))) {
    errors.push({ path: '/body/publishable_key_id', message: 'no live publishable key of this shop has this id' });
  }
  const planIds = input.offered_plan_ids;
  if (planIds) {
    const known = new Set((await plansOfShop(ctx, planIds, false)).map((p) => p.id));
    planIds.forEach((id, i) => {
      if (!known.has(id))
        errors.push({ path: `/body/offered_plan_ids/${i}`, message: 'no plan of this shop has this id' });
    });
  }
  if (errors.length > 0)
    throw new AppError('validation_failed', 'The storefront settings name unknown records', errors);
  const set = {
    publishableKeyId: input.publishable_key_id,
    ...(planIds ? { offeredPlanIds: planIds } : {}),
    updatedAt: now,
  };
  await ctx.db
    .insert(storefrontSettings)
    .values({ shopId: ctx.shopId, ...set })
    .onConflictDoUpdate({ target: storefrontSettings.shopId, set });
  return getStorefrontSettings(ctx);
}

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

/** The shop a page served for `host` belongs to, or null. */
async function shopForHost(ctx: Pick<Ctx, 'db' | 'config'>, host: string): Promise<string | null> {
  const mapped = await shopOfDomain(ctx.db, host);
  if (mapped) return mapped;
  const publicHost = new URL(ctx.config.publicUrl).hostname.toLowerCase();
  if (!LOCAL_HOSTS.has(host) && host !== publicHost) return null;
  const [first] = await ctx.db
    .select({ shopId: storefrontSettings.shopId })
    .from(storefrontSettings)
    .where(isNotNull(storefrontSettings.publishableKeyId))
    .orderBy(asc(storefrontSettings.createdAt), asc(storefrontSettings.shopId))
    .limit(1);
  return first?.shopId ?? null;
}

/**
 * The built-in storefront's address for this shop (`PUBLIC_URL/shop/`), or null: when STOREFRONT=0,
 * or PUBLIC_URL's host shows another shop's storefront (or none), or the shop's setting names no
 * live key. The affiliate portal's referral link falls back to it (docs/portals.md).
 */
export async function builtInStorefrontUrl(ctx: Pick<Ctx, 'db' | 'config' | 'shopId'>): Promise<string | null> {
  if (!ctx.config.storefront) return null;
  const publicHost = new URL(ctx.config.publicUrl).hostname.toLowerCase();
  if ((await shopForHost(ctx, publicHost)) !== ctx.shopId) return null;
  const settings = await getStorefrontSettings(ctx);
  if (!settings.publishable_key_id) return null;
  return `${ctx.config.publicUrl.replace(/\/+$/, '')}/shop/`;
}

export async function storefrontBootstrap(ctx: Pick<Ctx, 'db' | 'config'>, host: string, pageOrigin: string) {
  const shopId = await shopForHost(ctx, host);
  const settings = shopId ? await getStorefrontSettings({ db: ctx.db, shopId }) : null;
  const plans = shopId && settings ? await plansOfShop({ db: ctx.db, shopId }, settings.offered_plan_ids, true) : [];
  const key =
    shopId && settings?.publishable_key_id
      ? await livePublishableKey({ db: ctx.db, shopId }, settings.publishable_key_id)
      : null;
  if (!shopId || !key) throw notFound('Storefront');
  return {
    shop_name: (await shopName({ db: ctx.db, shopId })) ?? '',
    publishable_key: key.key,
    origin_allowed: key.allowed_origins.includes(normalizeOrigin(pageOrigin) ?? ''),
    offered_plans: plans,
  };
}

export const StoreCategoryList = Type.Object({
  categories: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), parent_id: Nullable(Type.String()) })),
});

export function storefrontSettingsRoutes(app: TypedApp, deps: AppDeps): void {
  app.get(
    '/api/store/categories',
    {
      config: storefrontKey,
      schema: {
        tags,
        summary: "The shop's categories for a storefront's filter (id, name, parent), by name; at most 500",
        response: { 200: StoreCategoryList },
      },
    },
    async (request) => ({ categories: await storeCategories(request.ctx) }),
  );
  app.get(
    '/api/admin/storefront-settings',
    {
      config: configureShop,
      schema: {
        tags,
        summary: 'The built-in storefront: the publishable key its pages use (owner or admin)',
        response: { 200: StorefrontSettingsSchema },
      },
    },
    async (request) => getStorefrontSettings(request.ctx),
  );
  app.put(
    '/api/admin/storefront-settings',
    {
      config: configureShop,
      schema: {
        tags,
        summary: 'Name the publishable key of the built-in storefront (owner or admin)',
        description: "The storefront's origin must be on the key's allowlist for its pages to work.",
        body: StorefrontSettingsBody,
        response: { 200: StorefrontSettingsSchema },
      },
    },
    async (request) => setStorefrontSettings(request.ctx, request.body, deps.clock.now()),
  );
  app.get(
    '/api/storefront/bootstrap',
    {
      config: publicRoute,
      schema: {
        tags,
        summary: "The built-in storefront's shop and publishable key for this host (public)",
        description:
          "The shop: the request host against the channel domain mappings; on localhost or PUBLIC_URL's host " +
          'the oldest shop with a storefront key (the demo shop). 404 when none, or STOREFRONT=0.',
        response: { 200: StorefrontBootstrapSchema },
      },
    },
    async (request, reply) => {
      if (!deps.config.storefront) throw notFound('Storefront');
      const host = request.hostname.replace(/:\d+$/, '').replace(/\.$/, '').toLowerCase();
      reply.header('cache-control', 'no-store');
      return storefrontBootstrap(request.ctx, host, `${request.protocol}://${request.host}`);
    },
  );
}
