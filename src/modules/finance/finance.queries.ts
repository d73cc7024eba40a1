/**
 * What other modules read of finance's tables, as functions of its own (docs/ARCHITECTURE.md,
 * "Cross-module table reads").
 */
import { type SQL, sql } from 'drizzle-orm';

/**
 * The number of credit note `creditNoteId` in `shopId` as a scalar subquery (null when there is
 * none), for report queries that show it beside their own rows. Pass qualified references, e.g.
 * sql`t.credit_note_id`.
 */
export const creditNoteNumberSql = (creditNoteId: SQL, shopId: SQL): SQL<string | null> =>
  sql<string | null>`(SELECT cn.number FROM credit_notes cn WHERE cn.id = ${creditNoteId} AND cn.shop_id = ${shopId})`;
