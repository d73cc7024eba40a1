/**
 * Stock reservations for checkout. A conditional UPDATE takes units only when enough are left,
 * so concurrent checkouts of the last unit can never both succeed (no oversell).
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Ctx } from '../../platform/auth/types.js';
import { preparedQuery, query, type TxCtx } from '../../platform/db/tx.js';

export interface StockRef {
  product_id: string;
  variant_id: string | null;
  quantity: number;
}

/** Gives reserved units back (expired session, cancelled unpaid order), in the caller's transaction. */
export async function releaseStock(ctx: TxCtx, ref: StockRef): Promise<void> {
  const { db: tx, shopId } = ctx;
  if (ref.variant_id) {
    await tx.execute(
      sql`UPDATE product_variants SET stock_quantity = stock_quantity + ${ref.quantity}
          WHERE shop_id = ${shopId} AND id = ${ref.variant_id}`,
    );
  } else {
    await tx.execute(
      sql`UPDATE products SET stock_quantity = stock_quantity + ${ref.quantity} WHERE shop_id = ${shopId} AND id = ${ref.product_id}`,
    );
  }
}

interface StockRow {
  quantity: number;
  product: string;
  indexes: number[];
}

/** The refs of one table, summed per row. */
function rowsOf(table: 'products' | 'product_variants', refs: StockRef[]): Map<string, StockRow> {
  const rows = new Map<string, StockRow>();
  refs.forEach((r, i) => {
    const id = table === 'products' ? (r.variant_id ? null : r.product_id) : r.variant_id;
    if (!id) return;
    const row = rows.get(id) ?? { quantity: 0, product: r.product_id, indexes: [] };
    row.quantity += r.quantity;
    row.indexes.push(i);
    rows.set(id, row);
  });
  return rows;
}

/**
 * The CTEs that take the units of one table's rows: lock them in id order, then decrement the
 * ones with enough stock (`<name>` returns the ids taken). Null when no ref uses the table.
 */
function reserveCtes(
  shopId: string,
  table: 'products' | 'product_variants',
  rows: Map<string, StockRow>,
  name: string,
) {
  if (rows.size === 0) return null;
  const want = sql.join(
    [...rows].map(([id, r]) => sql`(${id}::text, ${r.quantity}::int, ${r.product}::text)`),
    sql`, `,
  );
  const t = sql.raw(table);
  const w = sql.raw(`${name}_want`);
  const l = sql.raw(`${name}_locked`);
  const productMatch = table === 'product_variants' ? sql`AND x.product_id = w.product` : sql``;
  return sql`${w}(id, q, product) AS (VALUES ${want}),
    ${l} AS MATERIALIZED (
      SELECT x.id FROM ${t} x JOIN ${w} w ON w.id = x.id
      WHERE x.shop_id = ${shopId} ${productMatch}
      ORDER BY x.id FOR UPDATE OF x),
    ${sql.raw(name)} AS (
      UPDATE ${t} x SET stock_quantity = x.stock_quantity - w.q
      FROM ${w} w, ${l} l
      WHERE x.id = w.id AND l.id = x.id AND (NOT x.track_stock OR x.stock_quantity >= w.q)
      RETURNING x.id)`;
}

/**
 * One statement that reserves the refs' units and runs `also` (further data-modifying CTEs,
 * e.g. the INSERT of the checkout session and of its expiry job) — all or nothing: when any row
 * lacks stock, `commerce_assert` aborts the statement and nothing of it stays. Rows are locked
 * in id order, products before variants, so concurrent carts never deadlock; the locks are held
 * only while the statement runs and commits, not across round trips. Returns false when the
 * stock was not there.
 */
export async function reserveWith(
  ctx: Ctx,
  refs: StockRef[],
  also: { name: string; statement: SQL }[],
): Promise<boolean> {
  const { db, shopId } = ctx;
  const products = rowsOf('products', refs);
  const variants = rowsOf('product_variants', refs);
  const ctes = [
    reserveCtes(shopId, 'products', products, 'taken_products'),
    reserveCtes(shopId, 'product_variants', variants, 'taken_variants'),
    ...also.map((a) => sql`${sql.raw(a.name)} AS (${a.statement})`),
  ].filter((c): c is SQL => c !== null);
  const checks = [
    products.size > 0 ? sql`(SELECT count(*) FROM taken_products) = ${products.size}` : sql`true`,
    variants.size > 0 ? sql`(SELECT count(*) FROM taken_variants) = ${variants.size}` : sql`true`,
  ];
  const counts = also.map((a) => sql`(SELECT count(*) FROM ${sql.raw(a.name)})`);
  try {
    // prepared per shape of the cart (platform/db/tx.ts): the statement is wide, its planning
    // costs more than its execution
    await preparedQuery(
      db,
      'reserve_with',
      sql`WITH ${sql.join(ctes, sql`, `)}
          SELECT commerce_assert(${sql.join(checks, sql` AND `)}, 'out_of_stock') AS ok
          ${counts.length > 0 ? sql`, ${sql.join(counts, sql`, `)}` : sql``}`,
    );
    return true;
  } catch (err) {
    const e = err as { code?: string; cause?: { code?: string } };
    if (e.code === 'CM001' || e.cause?.code === 'CM001') return false;
    throw err;
  }
}

/** Which refs the current stock cannot serve (for the error after a refused reservation). */
export async function shortRefs(ctx: Ctx, refs: StockRef[]): Promise<number[]> {
  const { db, shopId } = ctx;
  const short: number[] = [];
  for (const table of ['products', 'product_variants'] as const) {
    const rows = rowsOf(table, refs);
    if (rows.size === 0) continue;
    const found = await query<{ id: string; stock_quantity: number; track_stock: boolean }>(
      db,
      sql`SELECT id, stock_quantity, track_stock FROM ${sql.raw(table)}
          WHERE shop_id = ${shopId} AND id IN (${sql.join(
            [...rows.keys()].map((id) => sql`${id}`),
            sql`, `,
          )})`,
    );
    for (const [id, r] of rows) {
      const row = found.find((f) => f.id === id);
      if (!row || (row.track_stock && Number(row.stock_quantity) < r.quantity)) short.push(...r.indexes);
    }
  }
  return short.sort((a, b) => a - b);
}

/**
 * Takes the units of several lines inside the caller's transaction (the direct flow, which
 * creates its order in the same transaction): rows locked in id order, products before
 * variants, one statement per table. Returns the indexes of the refs that were not in stock; the
 * caller rolls back when there are any.
 */
export async function reserveMany(ctx: TxCtx, refs: StockRef[]): Promise<number[]> {
  const { db: tx, shopId } = ctx;
  const failed: number[] = [];
  for (const [table, name] of [
    ['products', 'taken_products'],
    ['product_variants', 'taken_variants'],
  ] as const) {
    const rows = rowsOf(table, refs);
    const ctes = reserveCtes(shopId, table, rows, name);
    if (!ctes) continue;
    const taken = await query<{ id: string }>(tx, sql`WITH ${ctes} SELECT id FROM ${sql.raw(name)}`);
    const ok = new Set(taken.map((r) => r.id));
    for (const [id, r] of rows) if (!ok.has(id)) failed.push(...r.indexes);
  }
  return failed.sort((a, b) => a - b);
}
