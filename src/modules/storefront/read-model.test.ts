/**
 * The storefront read side checked against the database and the schemas.
 *
 * The storefront's cached answers are right only while every table its reads touch bumps the
 * shop's storefront version when written (the deferred `storefront_bump` triggers, migrations
 * `storefront` and `settings_version`). The tables are not listed by hand: the test serves the
 * public product list and product page cold (every search and channel shape the cache keys on),
 * records the statements the database driver receives, takes the tables they read from their
 * FROM and JOIN clauses, and requires the version-bump trigger on each (pg_trigger), apart from a
 * short list of tables whose rows never change what a cached answer says, each with its reason.
 * A new table read by the storefront without a trigger fails here.
 */
import type { TSchema } from '@sinclair/typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createShop, type ShopFixture, STORE_ORIGIN, startApp, type TestApp } from '../../../test/helpers/app.js';
import { validatorCompiler } from '../../platform/http/validation.js';
import { StoreProductList, StoreProductWrapper } from './storefront.schemas.js';

/** Tables the storefront reads that need no bump, and why. */
const NO_BUMP_NEEDED: Record<string, string> = {
  storefront_versions: 'the version itself: read to validate the cache, written by the triggers',
  publishable_keys: 'the credential: checked on every request before the cache, never part of a cached answer',
  credential_directory:
    "the credential's shop (a directory lookup before the key is read): checked on every request, never part of a cached answer",
  clock_state:
    "the service clock's offset (simulated time in test mode), re-read by the process on a timer beside the requests; no cached answer depends on the time",
};

const BUMP_FUNCTIONS = ['storefront_bump', 'storefront_bump_shop'];

let t: TestApp;
let shop: ShopFixture;
const sent: string[] = [];

/** The tables named after FROM / JOIN (and UPDATE / INSERT INTO, which a read should not have). */
function tablesOf(text: string): string[] {
  const names = new Set<string>();
  for (const m of text.matchAll(/\b(?:from|join)\s+(?:only\s+)?(?:"?public"?\.)?"?([a-z_][a-z0-9_]*)"?/gi)) {
    if (m[1]) names.add(m[1].toLowerCase());
  }
  return [...names];
}

beforeAll(async () => {
  t = await startApp();
  shop = await createShop(t.app);
  const owner = shop.ownerToken;
  const channel = shop.defaultChannelId;
  const category = await call(t.app, 'POST', '/api/admin/categories', { token: owner, body: { name: 'Tassen' } });
  const brand = await call(t.app, 'POST', '/api/admin/brands', { token: owner, body: { name: 'Bergwerk' } });
  const product = await call(t.app, 'POST', '/api/products', {
    token: owner,
    body: {
      name: 'Bergtasse',
      sku: 'TASSE-1',
      base_price_cents: 1290,
      status: 'published',
      category_id: category.data.id,
      brand_id: brand.data.id,
      images: [{ url: 'https://img.example/tasse.jpg', alt: 'Tasse' }],
      variants: [
        { sku: 'TASSE-1-R', title: 'Rot', price_cents: 1390 },
        { sku: 'TASSE-1-B', title: 'Blau' },
      ],
    },
  });
  if (product.statusCode !== 201) throw new Error(product.body);
  const listed = await call(t.app, 'PATCH', `/api/products/${product.data.id}/channels/${channel}`, {
    token: owner,
    body: { is_published: true, price_cents: 1190 },
  });
  if (listed.statusCode !== 200) throw new Error(listed.body);
}, 60_000);

afterAll(async () => {
  await t?.close();
});

describe('storefront version triggers', () => {
  it('every table the cached storefront reads bumps the version when written', async () => {
    const raw = t.db.database.raw as unknown as { query: (...args: unknown[]) => Promise<unknown> };
    // record without changing the driver: wrap the real method
    const driverQuery = raw.query.bind(raw);
    raw.query = (...args: unknown[]) => {
      const first = args[0];
      sent.push(typeof first === 'string' ? first : ((first as { text?: string } | undefined)?.text ?? ''));
      return driverQuery(...args);
    };
    try {
      const headers = { origin: STORE_ORIGIN };
      const token = shop.publishableKey;
      const list = await call(t.app, 'GET', '/api/store/products', { token, headers });
      expect(list.statusCode).toBe(200);
      const product = list.data.products[0] as { id: string; slug: string; category_id?: string };
      expect(product).toBeDefined();
      for (const url of [
        '/api/store/products?q=tasse',
        '/api/store/products?q=TASSE-1-R',
        '/api/store/products?limit=1&offset=0',
        `/api/store/products/${product.slug}`,
        `/api/store/products/${product.id}`,
      ]) {
        const res = await call(t.app, 'GET', url, { token, headers });
        expect(res.statusCode, url).toBe(200);
      }
    } finally {
      raw.query = driverQuery;
    }

    const read = new Set(sent.flatMap(tablesOf));
    // only real tables (not CTE names or aliases)
    const tables = (await raw.query(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'`,
    )) as { rows: { table_name: string }[] };
    const existing = new Set(tables.rows.map((r) => r.table_name));
    const storefrontTables = [...read].filter((name) => existing.has(name)).sort();
    expect(storefrontTables).toContain('products');
    expect(storefrontTables).toContain('product_variants');

    const triggers = (await raw.query(
      `SELECT c.relname AS table_name, p.proname AS function_name
         FROM pg_trigger tg JOIN pg_class c ON c.oid = tg.tgrelid JOIN pg_proc p ON p.oid = tg.tgfoid
        WHERE NOT tg.tgisinternal OR tg.tgconstraint <> 0`,
    )) as { rows: { table_name: string; function_name: string }[] };
    const bumped = new Set(
      triggers.rows.filter((r) => BUMP_FUNCTIONS.includes(r.function_name)).map((r) => r.table_name),
    );
    const missing = storefrontTables.filter((name) => !bumped.has(name) && !(name in NO_BUMP_NEEDED));
    expect(missing, `tables read by the storefront without a storefront_bump trigger`).toEqual([]);
    // the allowlist names only tables the storefront reads and that have no trigger (no stale entries)
    for (const name of Object.keys(NO_BUMP_NEEDED)) {
      if (storefrontTables.includes(name))
        expect(bumped.has(name), `${name} is allowlisted but has a trigger`).toBe(false);
    }
    console.info(`storefront reads: ${storefrontTables.join(', ')}`);
  });
});

/**
 * The product list and page are written as JSON by hand (storefront.fragments.ts: stored
 * fragments concatenated), not by the schema's serializer; so the answers are checked against
 * the response schemas here: every required field with its type, and no field the schema lacks.
 */
describe('the hand-built storefront JSON', () => {
  /** Fields of the answer the schema does not name (the schemas allow none by intent). */
  const extraFields = (schema: TSchema, data: unknown, path: string): string[] => {
    if (Array.isArray(data))
      return data.flatMap((item, i) => extraFields(schema.items as TSchema, item, `${path}/${i}`));
    if (data === null || typeof data !== 'object') return [];
    const branches = (schema.anyOf as TSchema[] | undefined) ?? [schema];
    const object = branches.find((b) => b.type === 'object') ?? schema;
    const properties = (object.properties ?? {}) as Record<string, TSchema>;
    return Object.entries(data).flatMap(([key, value]) =>
      key in properties ? extraFields(properties[key] as TSchema, value, `${path}/${key}`) : [`${path}/${key}`],
    );
  };
  const matches = (schema: TSchema, data: unknown) => {
    // the app's own validator of bodies (no coercion): what the schema says, as strictly as a request is held to it
    const validate = validatorCompiler({ schema, httpPart: 'body', method: 'GET', url: '' }) as unknown as {
      (value: unknown): boolean;
      errors?: { instancePath: string; message?: string }[] | null;
    };
    validate(structuredClone(data));
    expect((validate.errors ?? []).map((e) => `${e.instancePath}: ${e.message}`)).toEqual([]);
    expect(extraFields(schema, data, '')).toEqual([]);
  };

  it('matches StoreProductList and StoreProduct, cold and from the cache', async () => {
    const headers = { origin: STORE_ORIGIN };
    const token = shop.publishableKey;
    for (let pass = 0; pass < 2; pass++) {
      const list = await call(t.app, 'GET', '/api/store/products?limit=10', { token, headers });
      expect(list.statusCode).toBe(200);
      expect(list.data.products.length).toBeGreaterThan(0);
      matches(StoreProductList, list.data);
      const found = await call(t.app, 'GET', '/api/store/products?q=tasse-1-b', { token, headers });
      matches(StoreProductList, found.data);
      const slug = list.data.products[0].slug as string;
      const one = await call(t.app, 'GET', `/api/store/products/${slug}`, { token, headers });
      expect(one.statusCode).toBe(200);
      expect(one.data.product.variants.length).toBe(2);
      matches(StoreProductWrapper, one.data);
    }
  });
});
