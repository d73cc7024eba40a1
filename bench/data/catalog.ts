/**
 * A fixed, seeded catalog for benchmarks: `count` products with 1–3 variants each, a mix of
 * statuses, categories (with subcategories), brands, suppliers and digital products, written
 * with multi-row INSERTs in batches of 1000. The same seed gives the same catalog (names, SKUs,
 * prices, assignments, creation times); only the random parts of the ids differ.
 *
 * It writes the tables directly (not through the service) for speed, and keeps the invariants
 * the service keeps: the SKU register (`catalog_skus`), unique slugs and `search_text`.
 * Call it on a shop without catalog data (reference names and slugs would collide otherwise).
 */
import { slugify } from '../../src/modules/catalog/index.js';
import type { Db } from '../../src/platform/db/client.js';
import { brands, categories, suppliers } from '../../src/platform/db/schema.js';
import { newId } from '../../src/platform/ids.js';

const BATCH = 1000;
/** Creation times start here and step one minute per product, so ordering is deterministic. */
const EPOCH = Date.UTC(2024, 0, 1);

export interface GeneratedCatalog {
  products: number;
  variants: number;
  categoryIds: string[];
  brandIds: string[];
  supplierIds: string[];
  /** A few SKUs, variant SKUs and name words that exist, for search requests. */
  sampleSkus: string[];
  sampleVariantSkus: string[];
  sampleWords: string[];
}

/** mulberry32: a small, fast, seedable PRNG. */
export function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T,
    chance: (p: number) => next() < p,
  };
}

const ADJECTIVES = ['Klassisch', 'Modern', 'Öko', 'Premium', 'Leicht', 'Robust', 'Weich', 'Große', 'Süß', 'Würzig'];
const GROUPS = [
  { nouns: ['T-Shirt', 'Hoodie', 'Jacke', 'Mütze', 'Schal', 'Socken'], tax: 'standard', sized: true },
  { nouns: ['Käse', 'Müsli', 'Kaffee', 'Schokolade', 'Honig', 'Tee'], tax: 'food', sized: false },
  { nouns: ['Roman', 'Kochbuch', 'Bildband', 'Reiseführer'], tax: 'books', sized: false },
  { nouns: ['Rucksack', 'Tasse', 'Lampe', 'Kissen', 'Uhr'], tax: 'standard', sized: false },
] as const;
const DIGITAL = ['E-Book', 'Online-Kurs', 'Software-Lizenz', 'Hörbuch'] as const;
const MATERIALS = ['Baumwolle', 'Leinen', 'Edelstahl', 'Bambus', 'Glas', 'Wolle', 'Leder'];
const SIZES = ['S', 'M', 'L', 'XL'];
const WEIGHTS = ['250 g', '500 g', '1 kg'];

/** Inserts the reference records: 8 categories with 2 subcategories each, 12 brands, 5 suppliers. */
async function generateReferences(db: Db, shopId: string, seed: number) {
  const now = new Date(EPOCH);
  const roots = Array.from({ length: 8 }, (_, i) => ({
    id: newId('category'),
    shopId,
    name: `Kategorie ${i + 1}`,
    createdAt: now,
    updatedAt: now,
  }));
  const children = roots.flatMap((r, i) =>
    [1, 2].map((j) => ({
      id: newId('category'),
      shopId,
      name: `Unterkategorie ${i + 1}.${j}`,
      parentId: r.id,
      createdAt: now,
      updatedAt: now,
    })),
  );
  const brandRows = Array.from({ length: 12 }, (_, i) => ({
    id: newId('brand'),
    shopId,
    name: `Marke ${String.fromCharCode(65 + i)} ${seed}`,
    createdAt: now,
    updatedAt: now,
  }));
  const supplierRows = Array.from({ length: 5 }, (_, i) => ({
    id: newId('supplier'),
    shopId,
    name: `Lieferant ${i + 1} ${seed}`,
    email: `lieferant${i + 1}@bench.test`,
    createdAt: now,
    updatedAt: now,
  }));
  await db.insert(categories).values(roots);
  await db.insert(categories).values(children);
  await db.insert(brands).values(brandRows);
  await db.insert(suppliers).values(supplierRows);
  return {
    categoryIds: [...roots, ...children].map((c) => c.id),
    brandIds: brandRows.map((b) => b.id),
    supplierIds: supplierRows.map((s) => s.id),
  };
}

/** The driver client under Drizzle (`pg` pool or PGlite): both take `query(text, params)`. */
type RawClient = { query(text: string, params?: unknown[]): Promise<unknown> };

/**
 * One multi-row INSERT with positional parameters, built by hand: for 1000-row batches this is
 * several times faster than Drizzle's insert builder. `wrap` turns a placeholder into an
 * expression (casts, the search normalisation).
 */
async function insertRows(
  client: RawClient,
  table: string,
  columns: string[],
  rows: unknown[][],
  wrap: Record<string, (p: string) => string> = {},
) {
  if (rows.length === 0) return;
  const params: unknown[] = [];
  const tuples = rows.map((row) => {
    const items = row.map((value, j) => {
      params.push(value);
      const p = `$${params.length}`;
      const w = wrap[columns[j] as string];
      return w ? w(p) : p;
    });
    return `(${items.join(',')})`;
  });
  await client.query(`INSERT INTO ${table} (${columns.join(',')}) VALUES ${tuples.join(',')}`, params);
}

const PRODUCT_COLUMNS = [
  'id',
  'shop_id',
  'name',
  'slug',
  'sku',
  'status',
  'type',
  'tax_class',
  'base_price_cents',
  'cost_price_cents',
  'category_id',
  'brand_id',
  'supplier_id',
  'is_digital',
  'track_stock',
  'stock_quantity',
  'short_description',
  'options',
  'search_text',
  'created_at',
  'updated_at',
];
const VARIANT_COLUMNS = [
  'id',
  'shop_id',
  'product_id',
  'sku',
  'title',
  'option_values',
  'price_cents',
  'stock_quantity',
  'track_stock',
  'is_default',
  'position',
  'created_at',
  'updated_at',
];
const SKU_COLUMNS = ['shop_id', 'sku', 'product_id', 'variant_id'];
const ts = (p: string) => `${p}::timestamptz`;
const WRAP_PRODUCT = {
  options: (p: string) => `${p}::jsonb`,
  // The same normalisation as the service: lower(f_unaccent(name sku slug variant-skus)).
  search_text: (p: string) => `lower(f_unaccent(${p}::text))`,
  base_price_cents: (p: string) => `${p}::bigint`,
  cost_price_cents: (p: string) => `${p}::bigint`,
  stock_quantity: (p: string) => `${p}::int`,
  is_digital: (p: string) => `${p}::boolean`,
  track_stock: (p: string) => `${p}::boolean`,
  created_at: ts,
  updated_at: ts,
};
const WRAP_VARIANT = {
  option_values: (p: string) => `${p}::jsonb`,
  price_cents: (p: string) => `${p}::bigint`,
  stock_quantity: (p: string) => `${p}::int`,
  track_stock: (p: string) => `${p}::boolean`,
  is_default: (p: string) => `${p}::boolean`,
  position: (p: string) => `${p}::int`,
  created_at: ts,
  updated_at: ts,
};

/** Bulk-inserts `count` products of a seeded catalog into `shopId`. */
export async function generateCatalog(db: Db, shopId: string, count: number, seed: number): Promise<GeneratedCatalog> {
  const client = (db as unknown as { $client: RawClient }).$client;
  const rnd = prng(seed);
  const refs = await generateReferences(db, shopId, seed);
  const out: GeneratedCatalog = {
    products: 0,
    variants: 0,
    ...refs,
    sampleSkus: [],
    sampleVariantSkus: [],
    sampleWords: [],
  };

  for (let start = 0; start < count; start += BATCH) {
    const productRows: unknown[][] = [];
    const variantRows: unknown[][] = [];
    const skuRows: unknown[][] = [];
    for (let i = start; i < Math.min(count, start + BATCH); i++) {
      const id = newId('product');
      const digital = rnd.chance(0.1);
      const group = rnd.pick(GROUPS);
      const noun = digital ? rnd.pick(DIGITAL) : rnd.pick(group.nouns);
      const name = `${rnd.pick(ADJECTIVES)} ${noun} ${rnd.pick(MATERIALS)} ${i + 1}`;
      const slug = `${slugify(name)}-s${seed}`;
      const sku = `B${seed}-${String(i + 1).padStart(7, '0')}`;
      const roll = rnd.next();
      const status = roll < 0.7 ? 'published' : roll < 0.9 ? 'draft' : 'archived';
      const basePrice = rnd.int(99, 99_999);
      const createdAt = new Date(EPOCH + i * 60_000).toISOString();
      const sized = !digital && group.sized;
      const values = sized ? SIZES : digital ? ['Standard'] : WEIGHTS;
      const optionName = sized ? 'Größe' : digital ? 'Ausführung' : 'Menge';
      const nVariants = digital ? 1 : rnd.int(1, 3);
      const variantSkus: string[] = [];
      for (let v = 0; v < nVariants; v++) {
        const value = values[v] as string;
        const vid = newId('variant');
        const vsku = `${sku}-${v + 1}`;
        variantSkus.push(vsku);
        variantRows.push([
          vid,
          shopId,
          id,
          vsku,
          value,
          JSON.stringify({ [optionName]: value }),
          v === 0 ? null : basePrice + v * 500,
          rnd.int(0, 500),
          !digital,
          v === 0,
          v,
          createdAt,
          createdAt,
        ]);
        skuRows.push([shopId, vsku, id, vid]);
      }
      skuRows.push([shopId, sku, id, null]);
      productRows.push([
        id,
        shopId,
        name,
        slug,
        sku,
        status,
        'STANDARD',
        digital ? 'standard' : group.tax,
        basePrice,
        rnd.chance(0.5) ? Math.floor(basePrice * 0.4) : null,
        rnd.chance(0.85) ? rnd.pick(refs.categoryIds) : null,
        rnd.chance(0.8) ? rnd.pick(refs.brandIds) : null,
        rnd.chance(0.6) ? rnd.pick(refs.supplierIds) : null,
        digital,
        !digital,
        0,
        `${noun} aus ${rnd.pick(MATERIALS)}`,
        JSON.stringify([{ name: optionName, values: values.slice(0, nVariants) }]),
        `${name} ${sku} ${slug} ${variantSkus.join(' ')}`,
        createdAt,
        createdAt,
      ]);
      if (i % Math.max(1, Math.floor(count / 10)) === 0) {
        out.sampleSkus.push(sku);
        out.sampleVariantSkus.push(variantSkus[variantSkus.length - 1] as string);
        out.sampleWords.push(noun);
      }
    }
    // Parents first: variants and SKU rows reference the products.
    await insertRows(client, 'products', PRODUCT_COLUMNS, productRows, WRAP_PRODUCT);
    await insertRows(client, 'product_variants', VARIANT_COLUMNS, variantRows, WRAP_VARIANT);
    await insertRows(client, 'catalog_skus', SKU_COLUMNS, skuRows);
    out.products += productRows.length;
    out.variants += variantRows.length;
  }
  return out;
}
