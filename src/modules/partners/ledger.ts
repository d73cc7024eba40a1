/**
 * The partner ledger: double entry, append-only, one currency per transaction.
 *
 * Every movement of vendor or affiliate money is one transaction whose postings sum to zero
 * (checked here and again by a deferred constraint trigger at commit). Partner accounts are
 * credit-positive:
 *
 *   earning           pending   +A   expense  −A
 *   release           pending   −A   available +A
 *   clawback          pending or available −C   expense +C
 *   payout_requested  available −P   in_payout +P
 *   payout_paid       in_payout −P   paid_out  +P
 *   payout_cancelled  in_payout −P   available +P
 *
 * Balances are sums of postings, never stored. A transaction's `idem_key` is unique per shop,
 * so booking the same cause twice (a retried request, a duplicate webhook, a job run again after
 * a crash) books it once.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Ctx } from '../../platform/auth/types.js';
import { iso } from '../../platform/dates.js';
import { query, type TxCtx } from '../../platform/db/tx.js';
import { newId } from '../../platform/ids.js';
import {
  ACCOUNTS,
  type Account,
  LEDGER_KINDS,
  type LedgerKind,
  ledgerPostings,
  ledgerTransactions,
  type PartnerType,
} from './partners.tables.js';

export { ACCOUNTS, type Account, LEDGER_KINDS, type LedgerKind };

export interface Posting {
  account: Account;
  amount: number;
}

/**
 * What the ledger books with: the shop and its open transaction. A request's `TxCtx` is one;
 * the cross-module hooks, which run in the transaction of an order change, pass just these two.
 */
export type ShopTx = Pick<TxCtx, 'db' | 'shopId'>;

/** One entry of the shop of the context that books it. */
export interface LedgerEntry {
  partnerType: PartnerType;
  partnerId: string;
  currency: string;
  kind: LedgerKind;
  /** Unique per shop: the cause of the entry (`earning:<id>`, `release:<id>`, …). */
  idemKey: string;
  earningId?: string | null;
  payoutId?: string | null;
  orderId?: string | null;
  creditNoteId?: string | null;
  memo?: string | null;
  occurredAt: Date;
  postings: Posting[];
}

/** Two postings moving `amount` from one account to another. */
export function move(from: Account, to: Account, amount: number): Posting[] {
  return [
    { account: from, amount: -amount },
    { account: to, amount },
  ];
}

/**
 * Books one balanced transaction in the caller's transaction. Returns the transaction id, and
 * `created: false` when an entry with the same `idemKey` already exists (nothing is booked again).
 */
export async function post(ctx: ShopTx, e: LedgerEntry): Promise<{ id: string; created: boolean }> {
  const { db: tx, shopId } = ctx;
  if (e.postings.length < 2) throw new Error('ledger: a transaction needs at least two postings');
  let sum = 0;
  for (const p of e.postings) {
    if (!Number.isSafeInteger(p.amount)) throw new Error(`ledger: amount ${p.amount} is not integer cents`);
    sum += p.amount;
  }
  if (sum !== 0) throw new Error(`ledger: postings of ${e.idemKey} sum to ${sum}, not 0`);
  const id = newId('ledger');
  const inserted = await tx
    .insert(ledgerTransactions)
    .values({
      id,
      shopId,
      partnerType: e.partnerType,
      partnerId: e.partnerId,
      currency: e.currency,
      kind: e.kind,
      idemKey: e.idemKey,
      earningId: e.earningId ?? null,
      payoutId: e.payoutId ?? null,
      orderId: e.orderId ?? null,
      creditNoteId: e.creditNoteId ?? null,
      memo: e.memo ?? null,
      occurredAt: e.occurredAt,
      createdAt: e.occurredAt,
    })
    .onConflictDoNothing({ target: [ledgerTransactions.shopId, ledgerTransactions.idemKey] })
    .returning({ id: ledgerTransactions.id });
  if (inserted.length === 0) {
    const [existing] = await query<{ id: string }>(
      tx,
      sql`SELECT id FROM ledger_transactions WHERE shop_id = ${shopId} AND idem_key = ${e.idemKey}`,
    );
    return { id: existing?.id ?? '', created: false };
  }
  const postings = e.postings.filter((p) => p.amount !== 0);
  if (postings.length > 0) {
    await tx.insert(ledgerPostings).values(
      postings.map((p, i) => ({
        id: `${id}_p${i + 1}`,
        shopId,
        transactionId: id,
        partnerType: e.partnerType,
        partnerId: e.partnerId,
        account: p.account,
        currency: e.currency,
        amountCents: p.amount,
        occurredAt: e.occurredAt,
      })),
    );
  }
  return { id, created: true };
}

export interface Balance {
  partner_id: string;
  currency: string;
  pending_cents: number;
  available_cents: number;
  in_payout_cents: number;
  paid_out_cents: number;
  /** Everything earned net of clawbacks (= −expense = the four partner accounts together). */
  earned_cents: number;
  /** What the shop still owes: pending + available + in_payout. */
  owed_cents: number;
}

const empty = (partnerId: string, currency: string): Balance => ({
  partner_id: partnerId,
  currency,
  pending_cents: 0,
  available_cents: 0,
  in_payout_cents: 0,
  paid_out_cents: 0,
  earned_cents: 0,
  owed_cents: 0,
});

/**
 * Balances per partner and currency, summed from the postings (optionally only postings that
 * occurred before `before`). Partners without postings are absent from the result.
 */
export async function balances(
  ctx: Ctx,
  partnerType: PartnerType,
  opts: { partnerIds?: string[]; currency?: string; before?: Date } = {},
): Promise<Balance[]> {
  if (opts.partnerIds && opts.partnerIds.length === 0) return [];
  const conds: SQL[] = [sql`shop_id = ${ctx.shopId}`, sql`partner_type = ${partnerType}`];
  if (opts.partnerIds) {
    conds.push(
      sql`partner_id IN (${sql.join(
        opts.partnerIds.map((id) => sql`${id}`),
        sql`, `,
      )})`,
    );
  }
  if (opts.currency) conds.push(sql`currency = ${opts.currency}`);
  if (opts.before) conds.push(sql`occurred_at < ${opts.before.toISOString()}::timestamptz`);
  const rows = await query<{ partner_id: string; currency: string; account: Account; total: number | string }>(
    ctx.db,
    sql`SELECT partner_id, currency, account, sum(amount_cents)::bigint AS total
        FROM ledger_postings WHERE ${sql.join(conds, sql` AND `)}
        GROUP BY partner_id, currency, account
        ORDER BY partner_id, currency`,
  );
  const out = new Map<string, Balance>();
  for (const r of rows) {
    const key = `${r.partner_id}|${r.currency}`;
    const b = out.get(key) ?? empty(r.partner_id, r.currency);
    const total = Number(r.total);
    if (r.account === 'expense') b.earned_cents = -total;
    else b[`${r.account}_cents`] = total;
    out.set(key, b);
  }
  for (const b of out.values()) b.owed_cents = b.pending_cents + b.available_cents + b.in_payout_cents;
  return [...out.values()];
}

/** One partner's balance in one currency (zeros when nothing was booked). */
export async function balanceOf(
  ctx: Ctx,
  partnerType: PartnerType,
  partnerId: string,
  currency: string,
): Promise<Balance> {
  const [b] = await balances(ctx, partnerType, { partnerIds: [partnerId], currency });
  return b ?? empty(partnerId, currency);
}

/** The balance without `partner_id`, as the API shows it. */
export function balanceOut(b: Balance) {
  const { partner_id: _partner, ...rest } = b;
  return rest;
}

export interface LedgerLine {
  id: string;
  kind: LedgerKind;
  currency: string;
  earning_id: string | null;
  payout_id: string | null;
  order_id: string | null;
  credit_note_id: string | null;
  memo: string | null;
  occurred_at: string;
  postings: { account: Account; amount_cents: number }[];
}

/** A partner's ledger transactions with their postings, oldest first, paginated. */
export async function ledgerOf(
  ctx: Ctx,
  partnerType: PartnerType,
  partnerId: string,
  opts: { limit: number; offset: number; currency?: string; from?: Date; to?: Date },
): Promise<{ entries: LedgerLine[]; count: number }> {
  const conds: SQL[] = [
    sql`t.shop_id = ${ctx.shopId}`,
    sql`t.partner_type = ${partnerType}`,
    sql`t.partner_id = ${partnerId}`,
  ];
  if (opts.currency) conds.push(sql`t.currency = ${opts.currency}`);
  if (opts.from) conds.push(sql`t.occurred_at >= ${opts.from.toISOString()}::timestamptz`);
  if (opts.to) conds.push(sql`t.occurred_at < ${opts.to.toISOString()}::timestamptz`);
  const where = sql.join(conds, sql` AND `);
  const [rows, total] = await Promise.all([
    query<{
      id: string;
      kind: LedgerKind;
      currency: string;
      earning_id: string | null;
      payout_id: string | null;
      order_id: string | null;
      credit_note_id: string | null;
      memo: string | null;
      occurred_at: string | Date;
      postings: { account: Account; amount_cents: number | string }[] | null;
    }>(
      ctx.db,
      sql`SELECT t.id, t.kind, t.currency, t.earning_id, t.payout_id, t.order_id, t.credit_note_id, t.memo,
                 t.occurred_at,
                 (SELECT json_agg(json_build_object('account', p.account, 'amount_cents', p.amount_cents) ORDER BY p.id)
                  FROM ledger_postings p WHERE p.shop_id = t.shop_id AND p.transaction_id = t.id) AS postings
          FROM ledger_transactions t WHERE ${where}
          ORDER BY t.occurred_at, t.id
          LIMIT ${opts.limit} OFFSET ${opts.offset}`,
    ),
    query<{ n: number }>(ctx.db, sql`SELECT count(*)::int AS n FROM ledger_transactions t WHERE ${where}`),
  ]);
  return {
    entries: rows.map((r) => ({
      ...r,
      occurred_at: iso(r.occurred_at),
      postings: (r.postings ?? []).map((p) => ({ account: p.account, amount_cents: Number(p.amount_cents) })),
    })),
    count: Number(total[0]?.n ?? 0),
  };
}
