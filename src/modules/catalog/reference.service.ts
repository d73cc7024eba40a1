/**
 * Reference records of the catalog: categories (a tree), brands and suppliers. A record that live
 * products use cannot be deleted (409 in_use); a category never becomes its own ancestor.
 */

import { and, asc, eq, getTableName, isNull, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Ctx } from '../../platform/auth/types.js';
import { iso } from '../../platform/dates.js';
import { one, type TxCtx, withTx } from '../../platform/db/tx.js';
import { AppError, conflict, invalidField, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import type { BrandInput, CategoryInput, RefListInput, SupplierInput } from './catalog.schemas.js';
import { brands, categories, products, suppliers } from './catalog.tables.js';
import { LOCK_CATEGORY_TREE, searchConditions, uniqueConstraintOf } from './catalog.util.js';

type CategoryRow = typeof categories.$inferSelect;
type BrandRow = typeof brands.$inferSelect;
type SupplierRow = typeof suppliers.$inferSelect;

export const categoryOut = (c: CategoryRow) => ({
  id: c.id,
  name: c.name,
  parent_id: c.parentId,
  description: c.description,
  created_at: iso(c.createdAt),
  updated_at: iso(c.updatedAt),
});

export const brandOut = (b: BrandRow) => ({
  id: b.id,
  name: b.name,
  description: b.description,
  created_at: iso(b.createdAt),
  updated_at: iso(b.updatedAt),
});

export const supplierOut = (s: SupplierRow) => ({
  id: s.id,
  name: s.name,
  email: s.email,
  phone: s.phone,
  created_at: iso(s.createdAt),
  updated_at: iso(s.updatedAt),
});

type RefTable = typeof categories | typeof brands | typeof suppliers;

const LABEL = new Map<RefTable, string>([
  [categories, 'Category'],
  [brands, 'Brand'],
  [suppliers, 'Supplier'],
]);

/** The product column that points at each kind of record. */
const USED_BY = new Map<RefTable, AnyPgColumn>([
  [categories, products.categoryId],
  [brands, products.brandId],
  [suppliers, products.supplierId],
]);

const nameTaken = (table: RefTable) =>
  conflict(
    'name_taken',
    table === categories
      ? 'A category with this name already exists under the same parent'
      : `A ${LABEL.get(table)?.toLowerCase()} with this name already exists`,
  );

/** Runs a write and turns a duplicate name into 409 name_taken. */
async function guardName<T>(table: RefTable, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (uniqueConstraintOf(err) !== null) throw nameTaken(table);
    throw err;
  }
}

/**
 * How many live products use each record: the count a delete would refuse with (409 in_use).
 * The outer columns are qualified by hand: drizzle writes them bare in a one-table select, where
 * they would name the subquery's own table.
 */
const productCount = (table: RefTable) => {
  const outer = sql.raw(`"${getTableName(table)}"`);
  const column = sql.raw((USED_BY.get(table) as AnyPgColumn).name);
  return sql<number>`(SELECT count(*)::int FROM products p
    WHERE p.shop_id = ${outer}.shop_id AND p.${column} = ${outer}.id AND p.deleted_at IS NULL)`;
};

/**
 * A page of records by name, each with the number of live products that use it (`product_count`),
 * unless `counts` is false (a picker: the names only, without a count per record).
 */
async function listOf<T extends RefTable>(ctx: Ctx, table: T, input: RefListInput, extra: SQL[] = []) {
  const limit = input.limit ?? 50;
  const offset = input.offset ?? 0;
  const where = and(
    eq(table.shopId, ctx.shopId),
    ...searchConditions(sql`lower(f_unaccent(${table.name}))`, input.q),
    ...extra,
  );
  const counts = input.counts !== false;
  const [rows, total] = await Promise.all([
    ctx.db
      .select({
        row: table as RefTable,
        productCount: counts ? productCount(table) : sql<null>`NULL`,
        // subcategories also block a category's delete
        subcategoryCount:
          counts && table === categories
            ? sql<number>`(SELECT count(*)::int FROM categories sub
                WHERE sub.shop_id = "categories".shop_id AND sub.parent_id = "categories".id)`
            : sql<number>`0`,
      })
      .from(table as RefTable)
      .where(where)
      .orderBy(asc(sql`lower(${table.name})`), asc(table.id))
      .limit(limit)
      .offset(offset),
    ctx.db
      .select({ n: sql<number>`count(*)::int` })
      .from(table as RefTable)
      .where(where),
  ]);
  return {
    rows: rows.map((r) => ({
      ...(r.row as T['$inferSelect']),
      productCount: counts ? Number(r.productCount) : undefined,
      subcategoryCount: counts ? Number(r.subcategoryCount) : undefined,
    })),
    count: total[0]?.n ?? 0,
    limit,
    offset,
  };
}

async function getOf<T extends RefTable>(ctx: Ctx, table: T, id: string, lock = false) {
  const q = ctx.db
    .select()
    .from(table as RefTable)
    .where(and(eq(table.id, id), eq(table.shopId, ctx.shopId)));
  const [row] = lock ? await q.for('update') : await q;
  if (!row) throw notFound(LABEL.get(table));
  return row as T['$inferSelect'];
}

/** Deletes a record unless live products (or, for categories, subcategories) use it. */
async function deleteOf(ctx: Ctx, table: RefTable, id: string) {
  const label = LABEL.get(table) ?? 'Record';
  await withTx(ctx, async (t) => {
    const tx = t.db;
    // The row lock waits for product writes that reference the record (they hold KEY SHARE).
    await getOf(t, table, id, true);
    const column = USED_BY.get(table) as AnyPgColumn;
    const [used] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(products)
      .where(and(eq(products.shopId, ctx.shopId), eq(column, id), isNull(products.deletedAt)));
    const n = used?.n ?? 0;
    if (n > 0) {
      throw conflict(
        'in_use',
        `${label} is used by ${n} product${n === 1 ? '' : 's'}; move ${n === 1 ? 'it' : 'them'} to another ${label.toLowerCase()} first`,
      );
    }
    if (table === categories) {
      const [child] = await tx
        .select({ id: categories.id })
        .from(categories)
        .where(and(eq(categories.shopId, ctx.shopId), eq(categories.parentId, id)))
        .limit(1);
      if (child) throw conflict('in_use', 'Category has subcategories; move or delete them first');
    }
    // Soft-deleted products still pointing here lose the reference (ON DELETE SET NULL).
    await tx.delete(table).where(and(eq(table.id, id), eq(table.shopId, ctx.shopId)));
  });
}

// ---- categories --------------------------------------------------------------------------------

export const listCategories = (ctx: Ctx, input: RefListInput) =>
  listOf(
    ctx,
    categories,
    input,
    input.parent_id === undefined
      ? []
      : [input.parent_id === 'ohne' ? isNull(categories.parentId) : eq(categories.parentId, input.parent_id)],
  );

export const getCategory = (ctx: Ctx, id: string) => getOf(ctx, categories, id);

/** Serialises changes of a shop's category tree, so two moves can never close a cycle together. */
async function lockTree(ctx: TxCtx) {
  await ctx.db.execute(sql`SELECT pg_advisory_xact_lock(${LOCK_CATEGORY_TREE}, hashtext(${ctx.shopId}))`);
}

/** The parent must be a category of this shop; it is share-locked so it cannot vanish meanwhile. */
async function checkParent(ctx: TxCtx, parentId: string) {
  const [row] = await ctx.db
    .select({ id: categories.id })
    .from(categories)
    .where(and(eq(categories.id, parentId), eq(categories.shopId, ctx.shopId)))
    .for('key share');
  if (!row) throw invalidField('/body/parent_id', 'is not a category of this shop');
}

export async function createCategory(ctx: Ctx, input: CategoryInput & { name: string }) {
  return guardName(categories, () =>
    withTx(ctx, async (t) => {
      const tx = t.db;
      if (input.parent_id) await checkParent(t, input.parent_id);
      const now = ctx.clock.now();
      return one(
        await tx
          .insert(categories)
          .values({
            id: newId('category'),
            shopId: ctx.shopId,
            name: input.name.trim(),
            parentId: input.parent_id ?? null,
            description: input.description ?? null,
            createdAt: now,
            updatedAt: now,
          })
          .returning(),
      );
    }),
  );
}

/** Changes a category; a new parent must not be the category itself or one of its descendants. */
export async function updateCategory(ctx: Ctx, id: string, input: CategoryInput) {
  return guardName(categories, () =>
    withTx(ctx, async (t) => {
      const tx = t.db;
      if (input.parent_id !== undefined) await lockTree(t);
      const current = await getOf(t, categories, id, true);
      if (input.parent_id) {
        if (input.parent_id === id) {
          throw new AppError('invalid_parent', 'A category cannot be its own parent', [
            { path: '/body/parent_id', message: 'is the category itself' },
          ]);
        }
        await checkParent(t, input.parent_id);
        const rows = await tx.execute(sql`
          WITH RECURSIVE up(id, parent_id) AS (
            SELECT id, parent_id FROM categories WHERE id = ${input.parent_id} AND shop_id = ${ctx.shopId}
            UNION
            SELECT c.id, c.parent_id FROM categories c JOIN up ON c.id = up.parent_id WHERE c.shop_id = ${ctx.shopId}
          )
          SELECT 1 AS hit FROM up WHERE id = ${id} LIMIT 1`);
        if ((rows as unknown as { rows: unknown[] }).rows.length > 0) {
          throw new AppError('invalid_parent', 'A category cannot become its own ancestor', [
            { path: '/body/parent_id', message: 'is a subcategory of this category' },
          ]);
        }
      }
      return one(
        await tx
          .update(categories)
          .set({
            ...(input.name !== undefined ? { name: input.name.trim() } : {}),
            ...(input.parent_id !== undefined ? { parentId: input.parent_id } : {}),
            ...(input.description !== undefined ? { description: input.description } : {}),
            updatedAt: ctx.clock.now(),
          })
          .where(and(eq(categories.id, current.id), eq(categories.shopId, ctx.shopId)))
          .returning(),
      );
    }),
  );
}

export const deleteCategory = (ctx: Ctx, id: string) => deleteOf(ctx, categories, id);

// ---- brands ------------------------------------------------------------------------------------

export const listBrands = (ctx: Ctx, input: RefListInput) => listOf(ctx, brands, input);
export const getBrand = (ctx: Ctx, id: string) => getOf(ctx, brands, id);

export async function createBrand(ctx: Ctx, input: BrandInput & { name: string }) {
  const now = ctx.clock.now();
  return guardName(brands, async () => {
    return one(
      await ctx.db
        .insert(brands)
        .values({
          id: newId('brand'),
          shopId: ctx.shopId,
          name: input.name.trim(),
          description: input.description ?? null,
          createdAt: now,
          updatedAt: now,
        })
        .returning(),
    );
  });
}

export async function updateBrand(ctx: Ctx, id: string, input: BrandInput) {
  return guardName(brands, async () => {
    const [row] = await ctx.db
      .update(brands)
      .set({
        ...(input.name !== undefined ? { name: input.name.trim() } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
        updatedAt: ctx.clock.now(),
      })
      .where(and(eq(brands.id, id), eq(brands.shopId, ctx.shopId)))
      .returning();
    if (!row) throw notFound('Brand');
    return row;
  });
}

export const deleteBrand = (ctx: Ctx, id: string) => deleteOf(ctx, brands, id);

// ---- suppliers ---------------------------------------------------------------------------------

export const listSuppliers = (ctx: Ctx, input: RefListInput) => listOf(ctx, suppliers, input);
export const getSupplier = (ctx: Ctx, id: string) => getOf(ctx, suppliers, id);

export async function createSupplier(ctx: Ctx, input: SupplierInput & { name: string }) {
  const now = ctx.clock.now();
  return guardName(suppliers, async () => {
    return one(
      await ctx.db
        .insert(suppliers)
        .values({
          id: newId('supplier'),
          shopId: ctx.shopId,
          name: input.name.trim(),
          email: input.email ?? null,
          phone: input.phone ?? null,
          createdAt: now,
          updatedAt: now,
        })
        .returning(),
    );
  });
}

export async function updateSupplier(ctx: Ctx, id: string, input: SupplierInput) {
  return guardName(suppliers, async () => {
    const [row] = await ctx.db
      .update(suppliers)
      .set({
        ...(input.name !== undefined ? { name: input.name.trim() } : {}),
        ...(input.email !== undefined ? { email: input.email } : {}),
        ...(input.phone !== undefined ? { phone: input.phone } : {}),
        updatedAt: ctx.clock.now(),
      })
      .where(and(eq(suppliers.id, id), eq(suppliers.shopId, ctx.shopId)))
      .returning();
    if (!row) throw notFound('Supplier');
    return row;
  });
}

export const deleteSupplier = (ctx: Ctx, id: string) => deleteOf(ctx, suppliers, id);
