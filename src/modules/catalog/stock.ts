/**
 * Stock reservations for checkout. A conditional UPDATE takes units only when enough are left,
 * so concurrent checkouts of the last unit can never both succeed (no oversell).
 */
import { sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Ctx } from '../../platform/auth/types.js';
import { preparedText } from '../../platform/db/prepared.js';
import { insertInto, Params } from '../../platform/db/statement.js';
import { query, type TxCtx, withTx } from '../../platform/db/tx.js';

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
 * Takes the units of one table's rows in the caller's transaction and returns the ids taken: the
 * rows are locked in id order (so concurrent carts never deadlock), then one UPDATE decrements
 * those with enough stock, the quantity of each row written into the statement (`CASE WHEN id = … THEN …`: Citus 13
 * deparses the simple form `CASE id WHEN $n` for its shards as `WHEN NULL::boolean` and fails).
 * Both statements name the shop and the ids and join nothing, so on Citus each runs on the shop's
 * shard alone (docs/ARCHITECTURE.md "Routing by shop"). Text with numbered parameters
 * (platform/db/statement.ts), prepared per table and number of rows.
 */
async function takeUnits(
  ctx: TxCtx,
  table: 'products' | 'product_variants',
  rows: Map<string, StockRow>,
): Promise<Set<string>> {
  if (rows.size === 0) return new Set();
  const entries = [...rows];
  /** The statement's WHERE (the shop, the ids, a variant's product) and the quantity per row. */
  const shape = (params: Params) => {
    const shop = params.add(ctx.shopId);
    const ids = entries.map(([id]) => params.add(id));
    const byId = (value: (r: StockRow) => string) =>
      `CASE ${entries.map(([, r], i) => `WHEN id = ${ids[i]} THEN ${value(r)}`).join(' ')} END`;
    // a variant is taken only as a variant of the product the line names
    const productMatch =
      table === 'product_variants' ? `AND product_id = ${byId((r) => `${params.add(r.product)}::text`)}` : '';
    return {
      where: `shop_id = ${shop} AND id IN (${ids.join(', ')}) ${productMatch}`,
      quantity: () => byId((r) => `${params.add(r.quantity)}::int`),
    };
  };
  const lock = new Params();
  const locked = shape(lock);
  await preparedText(
    ctx.db,
    `lock_${table}`,
    `SELECT id FROM ${table} WHERE ${locked.where} ORDER BY id FOR UPDATE`,
    lock.values,
  );
  const take = new Params();
  const taking = shape(take);
  const quantity = taking.quantity();
  const taken = await preparedText<{ id: string }>(
    ctx.db,
    `take_${table}`,
    `UPDATE ${table} SET stock_quantity = stock_quantity - ${quantity}
      WHERE ${taking.where} AND (NOT track_stock OR stock_quantity >= ${quantity}) RETURNING id`,
    take.values,
  );
  return new Set(taken.map((r) => r.id));
}

/** A row to insert with the reservation (`reserveWith`). */
export interface AlsoInsert<T extends PgTable = PgTable> {
  table: T;
  values: Partial<T['$inferInsert']>;
}

/** Thrown inside `reserveWith`'s transaction when a row lacks stock: rolls everything back. */
const OUT_OF_STOCK = Symbol('out_of_stock');

/**
 * Reserves the refs' units and inserts the `also` rows (e.g. the checkout session and its expiry
 * job) in one short transaction — all or nothing: when any row lacks stock, nothing of it stays.
 * Rows are locked in id order, products before variants, so concurrent carts never deadlock; the
 * locks are held only while the transaction's few statements run, never across the caller's
 * other round trips. Each statement names the shop (on Citus: one shard). Returns false when the
 * stock was not there.
 */
export async function reserveWith(ctx: Ctx, refs: StockRef[], also: AlsoInsert[]): Promise<boolean> {
  try {
    await withTx(ctx, async (t) => {
      for (const table of ['products', 'product_variants'] as const) {
        const rows = rowsOf(table, refs);
        if ((await takeUnits(t, table, rows)).size !== rows.size) throw OUT_OF_STOCK;
      }
      for (const a of also) {
        const params = new Params();
        await preparedText(t.db, 'reserve_also', insertInto(a.table, a.values, params), params.values);
      }
    });
    return true;
  } catch (err) {
    if (err === OUT_OF_STOCK) return false;
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
 * variants (`takeUnits`). Returns the indexes of the refs that were not in stock; the caller
 * rolls back when there are any.
 */
export async function reserveMany(ctx: TxCtx, refs: StockRef[]): Promise<number[]> {
  const failed: number[] = [];
  for (const table of ['products', 'product_variants'] as const) {
    const rows = rowsOf(table, refs);
    const ok = await takeUnits(ctx, table, rows);
    for (const [id, r] of rows) if (!ok.has(id)) failed.push(...r.indexes);
  }
  return failed.sort((a, b) => a - b);
}
