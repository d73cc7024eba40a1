/**
 * Saved list views: an employee's named filters of a list, stored on the server so they follow
 * the employee to every browser. Only the employee who saved a view sees or changes it; another
 * employee's view is answered like a missing one (404).
 */

import type { Static } from '@sinclair/typebox';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Ctx } from '../../platform/auth/types.js';
import { iso } from '../../platform/dates.js';
import { isUniqueViolation, one, withTx } from '../../platform/db/tx.js';
import { AppError, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { SAVED_VIEW_LIMIT, type SavedViewCreate, type SavedViewUpdate } from './backoffice.schemas.js';
import { type SavedViewRow, savedViews } from './backoffice.tables.js';

/** The advisory lock class of one employee's saved views (catalog uses 727_101 and 727_102). */
const LOCK_SAVED_VIEWS = 727_201;

/** The signed-in employee (the routes accept admin sessions only). */
function employeeOf(ctx: Ctx): string {
  if (ctx.actor?.kind !== 'admin')
    throw new AppError('credential_denied', 'Saved views belong to a signed-in employee');
  return ctx.actor.userId;
}

export const savedViewOut = (r: SavedViewRow) => ({
  id: r.id,
  resource: r.resource as Static<typeof SavedViewCreate>['resource'],
  name: r.name,
  query: r.query,
  created_at: iso(r.createdAt),
  updated_at: iso(r.updatedAt),
});

const nameTaken = () =>
  new AppError('name_taken', 'You have a view of this list with this name already', [
    { path: '/body/name', message: 'is used by another of your views of this list' },
  ]);

export async function listSavedViews(ctx: Ctx, resource: string): Promise<SavedViewRow[]> {
  return ctx.db
    .select()
    .from(savedViews)
    .where(
      and(eq(savedViews.shopId, ctx.shopId), eq(savedViews.userId, employeeOf(ctx)), eq(savedViews.resource, resource)),
    )
    .orderBy(asc(savedViews.createdAt), asc(savedViews.id));
}

export async function createSavedView(ctx: Ctx, body: Static<typeof SavedViewCreate>): Promise<SavedViewRow> {
  const userId = employeeOf(ctx);
  return withTx(ctx, async (t) => {
    // one employee's concurrent saves count one after the other
    await t.db.execute(sql`SELECT pg_advisory_xact_lock(${LOCK_SAVED_VIEWS}, hashtext(${userId}))`);
    const [n] = await t.db
      .select({ n: sql<number>`count(*)::int` })
      .from(savedViews)
      .where(
        and(eq(savedViews.shopId, ctx.shopId), eq(savedViews.userId, userId), eq(savedViews.resource, body.resource)),
      );
    if (Number(n?.n ?? 0) >= SAVED_VIEW_LIMIT) {
      throw new AppError('saved_view_limit', `At most ${SAVED_VIEW_LIMIT} saved views per list; delete one first`);
    }
    const now = ctx.clock.now();
    try {
      return one(
        await t.db
          .insert(savedViews)
          .values({ id: newId('savedView'), shopId: ctx.shopId, userId, ...body, createdAt: now, updatedAt: now })
          .returning(),
      );
    } catch (err) {
      if (isUniqueViolation(err)) throw nameTaken();
      throw err;
    }
  });
}

export async function updateSavedView(
  ctx: Ctx,
  id: string,
  body: Static<typeof SavedViewUpdate>,
): Promise<SavedViewRow> {
  if (body.name === undefined && body.query === undefined) {
    throw new AppError('validation_failed', 'Change the name or the query', [
      { path: '/body', message: 'must have name or query' },
    ]);
  }
  const userId = employeeOf(ctx);
  try {
    const [row] = await ctx.db
      .update(savedViews)
      .set({
        ...(body.name !== undefined ? { name: body.name } : {}),
        ...(body.query !== undefined ? { query: body.query } : {}),
        updatedAt: ctx.clock.now(),
      })
      .where(and(eq(savedViews.id, id), eq(savedViews.shopId, ctx.shopId), eq(savedViews.userId, userId)))
      .returning();
    if (!row) throw notFound('Saved view');
    return row;
  } catch (err) {
    if (isUniqueViolation(err)) throw nameTaken();
    throw err;
  }
}

export async function deleteSavedView(ctx: Ctx, id: string): Promise<void> {
  const userId = employeeOf(ctx);
  const rows = await ctx.db
    .delete(savedViews)
    .where(and(eq(savedViews.id, id), eq(savedViews.shopId, ctx.shopId), eq(savedViews.userId, userId)))
    .returning({ id: savedViews.id });
  if (rows.length === 0) throw notFound('Saved view');
}
