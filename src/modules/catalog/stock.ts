/**
 * Stock reservations for checkout. A conditional UPDATE takes units only when enough are left,
 * so concurrent checkouts of the last unit can never both succeed (no oversell).
 */
import { sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Ctx } from '../../platform/auth/types.js';
import { preparedText } from '../../platform/db/prepared.js';
import { insertInto, Params } from '../../platform/db/statement.js';
import { query, type TxCtx } from '../../platform/db/tx.js';

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
 * ones with enough stock (`<name>` returns the ids taken). Null when no ref uses the table. Text
 * with numbered parameters (platform/db/statement.ts): it depends only on the number of rows.
 */
function reserveCtes(
  shopId: string,
  table: 'products' | 'product_variants',
  rows: Map<string, StockRow>,
  name: string,
  params: Params,
): string | null {
  if (rows.size === 0) return null;
  const want = [...rows]
    .map(([id, r]) => `(${params.add(id)}::text, ${params.add(r.quantity)}::int, ${params.add(r.product)}::text)`)
    .join(', ');
  const productMatch = table === 'product_variants' ? 'AND x.product_id = w.product' : '';
  return `${name}_want(id, q, product) AS (VALUES ${want}),
    ${name}_locked AS MATERIALIZED (
      SELECT x.id FROM ${table} x JOIN ${name}_want w ON w.id = x.id
      WHERE x.shop_id = ${params.add(shopId)} ${productMatch}
      ORDER BY x.id FOR UPDATE OF x),
    ${name} AS (
      UPDATE ${table} x SET stock_quantity = x.stock_quantity - w.q
      FROM ${name}_want w, ${name}_locked l
      WHERE x.id = w.id AND l.id = x.id AND (NOT x.track_stock OR x.stock_quantity >= w.q)
      RETURNING x.id)`;
}

/** A row to insert in the reserving statement (`reserveWith`). */
export interface AlsoInsert<T extends PgTable = PgTable> {
  table: T;
  values: Partial<T['$inferInsert']>;
}

/**
 * One statement that reserves the refs' units and inserts the `also` rows (e.g. the checkout
 * session and its expiry job) — all or nothing: when any row lacks stock, `commerce_assert`
 * aborts the statement and nothing of it stays. Rows are locked in id order, products before
 * variants, so concurrent carts never deadlock; the locks are held only while the statement runs
 * and commits, not across round trips. Written as text and prepared per shape of the cart: the
 * statement is wide, and building it through the query builder cost more CPU than running it.
 * Returns false when the stock was not there.
 */
export async function reserveWith(ctx: Ctx, refs: StockRef[], also: AlsoInsert[]): Promise<boolean> {
  const { db, shopId } = ctx;
  const params = new Params();
  const products = rowsOf('products', refs);
  const variants = rowsOf('product_variants', refs);
  const ctes = [
    reserveCtes(shopId, 'products', products, 'taken_products', params),
    reserveCtes(shopId, 'product_variants', variants, 'taken_variants', params),
    ...also.map((a, i) => `also_${i} AS (${insertInto(a.table, a.values, params)})`),
  ].filter((c): c is string => c !== null);
  const checks = [
    products.size > 0 ? `(SELECT count(*) FROM taken_products) = ${products.size}` : 'true',
    variants.size > 0 ? `(SELECT count(*) FROM taken_variants) = ${variants.size}` : 'true',
  ];
  try {
    await preparedText(
      db,
      'reserve_with',
      `WITH ${ctes.join(', ')} SELECT commerce_assert(${checks.join(' AND ')}, 'out_of_stock') AS ok`,
      params.values,
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
    const params = new Params();
    const ctes = reserveCtes(shopId, table, rows, name, params);
    if (!ctes) continue;
    const taken = await preparedText<{ id: string }>(tx, name, `WITH ${ctes} SELECT id FROM ${name}`, params.values);
    const ok = new Set(taken.map((r) => r.id));
    for (const [id, r] of rows) if (!ok.has(id)) failed.push(...r.indexes);
  }
  return failed.sort((a, b) => a - b);
}
