/**
 * Refunds (docs/payments.md). A refund is written `pending` first (so concurrent refunds count it),
 * then the provider moves the money (idempotent on the refund id), then the outcome is applied in
 * one transaction: the order becomes partially_refunded or refunded, a credit note for the amount
 * is created and finalized when the order has a final invoice (which also claws back partner
 * earnings and books it in the accounting sync) — without one the refunded share of the partner
 * earnings is clawed back directly — and `order.refunded` is sent. The test provider
 * refunds at once; Stripe confirms by webhook (`refund.succeeded` / `refund.failed` events).
 * Only a definitive refusal of the provider fails a refund; an error after which the money may
 * have moved (5xx, timeout, reset) keeps it `pending`, counted against what is left, until the
 * provider's webhook or the resume job (which asks the provider for it) knows its outcome.
 * Applying an outcome: settle-refund.ts; the provider's refund events: refund-provider-events.ts.
 */

import { and, asc, eq, sql } from 'drizzle-orm';
import { paymentProviderFor } from '../../adapters/payment/index.js';
import { type PaymentProvider, RefundRefusedError, type RefundResult } from '../../adapters/payment/port.js';
import type { Ctx } from '../../platform/auth/types.js';
import { iso } from '../../platform/dates.js';
import { lockOwned } from '../../platform/db/lock.js';
import { one, query, withTx } from '../../platform/db/tx.js';
import { AppError, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { enqueue } from '../../platform/jobs/queue.js';
import { orders, type RefundRow, refunds } from './orders.tables.js';
import { planRefund, type RefundAsk } from './refund-plan.js';
import type { RefundStatus } from './refund-states.js';
import { settleRefund } from './settle-refund.js';

type OrderRow = typeof orders.$inferSelect;

/** A refund's request: an amount, or order lines and quantities, or neither (all that is left); and why. */
export type RefundInput = RefundAsk & { reason: string };

/** Whether a retry names the same lines as the refund its key claimed (none on both sides for an amount). */
const sameLines = (asked: RefundAsk['lines'], stored: RefundRow['lines']) =>
  JSON.stringify((asked ?? []).map((l) => [l.line_id, l.quantity])) ===
  JSON.stringify((stored ?? []).map((l) => [l.line_id, l.quantity]));

export function refundOut(r: RefundRow) {
  return {
    id: r.id,
    order_id: r.orderId,
    amount_cents: r.amountCents,
    currency: r.currency,
    status: r.status,
    reason: r.reason,
    credit_note_id: r.creditNoteId,
    created_at: iso(r.createdAt),
  };
}

export async function listRefunds(ctx: Ctx, orderId: string): Promise<RefundRow[]> {
  const [order] = await ctx.db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.id, orderId), eq(orders.shopId, ctx.shopId)));
  if (!order) throw notFound('Order');
  return ctx.db
    .select()
    .from(refunds)
    .where(and(eq(refunds.shopId, ctx.shopId), eq(refunds.orderId, orderId)))
    .orderBy(asc(refunds.createdAt), asc(refunds.id));
}

/**
 * POST /api/admin/orders/:id/refunds: refunds all that is left, or `amount_cents` of it.
 * `idempotencyKey` (`principal|key` of the request's Idempotency-Key): a retry of a request that
 * died after its claim finds that refund and finishes it, instead of claiming and moving the money
 * a second time once the stored response of the first never came.
 */
export async function createRefund(
  ctx: Ctx,
  orderId: string,
  input: RefundInput,
  idempotencyKey: string | null = null,
): Promise<RefundRow> {
  const provider = paymentProviderFor(ctx.config);
  const { refund, order, prior } = await claimRefund(ctx, provider, orderId, input, idempotencyKey);
  // 2. and 3. (a prior claim still pending without the provider's answer: as its job would)
  let done = refund;
  let failure = refund.failureReason;
  if (!prior) ({ done, failure } = await moveAndSettle(ctx, provider, refund, order.paymentRef));
  else if (refund.status === 'pending' && refund.providerRef === null) {
    try {
      done = (await resumeRefund(ctx, refund.id)) ?? refund;
    } catch (err) {
      // still unknown: the refund stays pending (and counted); its job keeps asking
      if (!(err instanceof RefundOutcomeUnknown)) throw err;
    }
  }
  // `pending` (201) covers a refund whose outcome the provider has not told yet, an unanswered
  // call included: the admin is not invited to refund again (docs/decisions.md)
  if (done.status === 'failed') {
    throw new AppError(
      'provider_error',
      `The payment provider refused the refund: ${failure ?? done.failureReason ?? 'failed'}`,
    );
  }
  return done;
}

/**
 * 1. The claim, checked and written under the order's lock: a `pending` refund (it counts against
 * what is left at once) and the job that finishes it should the request die before its outcome.
 */
export async function claimRefund(
  ctx: Ctx,
  provider: PaymentProvider,
  orderId: string,
  input: RefundInput,
  idempotencyKey: string | null = null,
): Promise<{ refund: RefundRow; order: OrderRow; prior: boolean }> {
  const now = ctx.clock.now();
  return withTx(ctx, async (t) => {
    const tx = t.db;
    const order = await lockOwned(tx, orders, ctx.shopId, orderId, 'Order');
    if (idempotencyKey !== null) {
      const [prior] = await tx
        .select()
        .from(refunds)
        .where(
          and(
            eq(refunds.shopId, ctx.shopId),
            eq(refunds.orderId, order.id),
            eq(refunds.idempotencyKey, idempotencyKey),
          ),
        );
      if (prior) {
        if (
          (input.amount_cents !== undefined && input.amount_cents !== prior.amountCents) ||
          !sameLines(input.lines, prior.lines) ||
          input.reason !== prior.reason
        ) {
          throw new AppError('idempotency_key_reused', 'This Idempotency-Key claimed another refund of this order');
        }
        return { refund: prior, order, prior: true };
      }
    }
    // the amount (given, all that is left, or the gross of lines), what is left and the provider:
    // refund-plan.ts, which the refund preview shows. Money paid outside the provider (e.g. a bank
    // transfer recorded with mark-paid) goes back the same way: the refund is recorded as manual
    const plan = await planRefund(t, order, input, provider.name);
    const row = one(
      await tx
        .insert(refunds)
        .values({
          id: newId('refund'),
          shopId: ctx.shopId,
          orderId: order.id,
          amountCents: plan.amountCents,
          currency: order.currency,
          status: 'pending',
          reason: input.reason,
          provider: plan.provider,
          idempotencyKey,
          lines: plan.lines,
          createdAt: now,
          updatedAt: now,
        })
        .returning(),
    );
    // should this process die before the outcome is stored, the job finishes the refund
    await enqueue(
      tx,
      RESUME_REFUND_JOB,
      { shop_id: ctx.shopId, refund_id: row.id },
      {
        now,
        runAt: new Date(now.getTime() + RESUME_REFUND_AFTER_MS),
        shopId: ctx.shopId,
        maxAttempts: RESUME_REFUND_MAX_ATTEMPTS,
      },
    );
    return { refund: row, order, prior: false };
  });
}

/**
 * 2. the money, outside any transaction (the provider is idempotent on the refund id), unless the
 * refund is `manual`; 3. the outcome, in one transaction (`settleRefund`, applied once). Only a
 * definitive refusal (RefundRefusedError, or no call possible at all) fails the refund; any other
 * error leaves whether the money moved unknown: the refund stays `pending` (`unknown` says why)
 * and the resume job asks the provider for it.
 */
async function moveAndSettle(
  ctx: Ctx,
  provider: PaymentProvider,
  refund: RefundRow,
  paymentRef: string | null,
): Promise<{ done: RefundRow; failure: string | null; unknown: string | null }> {
  let status: RefundStatus = 'succeeded';
  let providerRef: string | null = null;
  let failure: string | null = null;
  let unknown: string | null = null;
  if (refund.provider !== 'manual') {
    if (refund.provider !== provider.name) {
      status = 'failed';
      failure = `the refund was made with ${refund.provider}, which is no longer the payment provider`;
    } else if (!paymentRef) {
      status = 'failed';
      failure = 'the order has no payment reference';
    } else {
      try {
        const r = await provider.refund({
          paymentRef,
          amountCents: refund.amountCents,
          currency: refund.currency,
          refundId: refund.id,
          reason: refund.reason,
        });
        status = r.status;
        providerRef = r.providerRef;
        if (r.status === 'failed') failure = 'the provider reported the refund as failed';
      } catch (err) {
        if (err instanceof RefundRefusedError) {
          status = 'failed';
          failure = err.message;
        } else {
          // a 5xx, a timeout, a reset: the provider may have refunded; never failed on a guess
          status = 'pending';
          unknown = (err as Error).message || String(err);
          ctx.log.warn(
            { refund_id: refund.id, order_id: refund.orderId, err: unknown },
            'the provider did not answer the refund clearly; it stays pending until the provider tells',
          );
        }
      }
    }
  }
  const done = await withTx(ctx, (t) =>
    settleRefund(t, refund.id, { status, providerRef, failure, now: ctx.clock.now() }),
  );
  return { done, failure, unknown };
}

/** The job that finishes a refund whose request died, or was not answered, before its outcome. */
export const RESUME_REFUND_JOB = 'orders.resume_refund';

/**
 * When it runs: after any request that is still moving the money has given up (Stripe's client
 * retries for a minute at most), and, while the outcome stays unknown, again with a backoff
 * (15 minutes doubling to 6 hours), RESUME_REFUND_MAX_ATTEMPTS times in all (about two days).
 */
const RESUME_REFUND_AFTER_MS = 15 * 60_000;
export const RESUME_REFUND_MAX_ATTEMPTS = 12;
export const resumeRefundRetryDelayMs = (attempts: number) =>
  Math.min(6 * 3600_000, RESUME_REFUND_AFTER_MS * 2 ** Math.max(0, attempts - 1));

/** The provider could not tell whether a refund was made (the job asks again later). */
export class RefundOutcomeUnknown extends Error {}

/**
 * Finishes a refund left `pending` without the provider's answer (the process died after the
 * claim, or the provider's answer was a 5xx, a timeout or a reset). The provider is asked first
 * for the refund made under our refund id (`findRefund`, by the metadata it was made with, at
 * any age): when it has one, that outcome is applied; when it definitively has none, the refund
 * is made now, under the same idempotency key (the key of a call Stripe may still replay). Throws
 * RefundOutcomeUnknown while the provider cannot tell. A refund already settled, or pending at
 * the provider with its reference stored (the provider's webhook settles it), is left alone.
 */
export async function resumeRefund(ctx: Ctx, refundId: string): Promise<RefundRow | null> {
  const [refund] = await ctx.db
    .select()
    .from(refunds)
    .where(and(eq(refunds.id, refundId), eq(refunds.shopId, ctx.shopId)));
  if (refund?.status !== 'pending' || refund.providerRef !== null) return null;
  const [order] = await ctx.db
    .select({ paymentRef: orders.paymentRef })
    .from(orders)
    .where(and(eq(orders.id, refund.orderId), eq(orders.shopId, ctx.shopId)));
  const paymentRef = order?.paymentRef ?? null;
  const provider = paymentProviderFor(ctx.config);
  ctx.log.warn({ refund_id: refund.id, order_id: refund.orderId }, 'finishing a refund left pending');
  if (refund.provider !== 'manual' && refund.provider === provider.name && paymentRef) {
    let found: RefundResult | null;
    try {
      found = await provider.findRefund({ paymentRef, refundId: refund.id });
    } catch (err) {
      throw new RefundOutcomeUnknown(
        `the provider could not tell whether refund ${refund.id} was made: ${(err as Error).message}`,
      );
    }
    if (found) {
      const outcome = found;
      return withTx(ctx, (t) =>
        settleRefund(t, refund.id, {
          status: outcome.status,
          providerRef: outcome.providerRef,
          failure: outcome.status === 'failed' ? 'the provider reported the refund as failed' : null,
          now: ctx.clock.now(),
        }),
      );
    }
  }
  const { done, unknown } = await moveAndSettle(ctx, provider, refund, paymentRef);
  if (unknown !== null) throw new RefundOutcomeUnknown(`refund ${refund.id}: ${unknown}`);
  return done;
}

/** What succeeded refunds without a credit note (the order had no final invoice) paid back. */
export async function refundedWithoutCreditNote(ctx: Pick<Ctx, 'db' | 'shopId'>, orderId: string): Promise<number> {
  const [row] = await query<{ total: number | string }>(
    ctx.db,
    sql`SELECT coalesce(sum(amount_cents), 0)::bigint AS total FROM refunds
        WHERE shop_id = ${ctx.shopId} AND order_id = ${orderId} AND status = 'succeeded' AND credit_note_id IS NULL`,
  );
  return Number(row?.total ?? 0);
}

/**
 * The credit notes of the order's refunds that failed at the provider after they had succeeded:
 * the money stayed with the shop, so they take nothing back from the partner earnings.
 */
export async function creditNotesOfFailedRefunds(
  ctx: Pick<Ctx, 'db' | 'shopId'>,
  orderId: string,
): Promise<Set<string>> {
  const rows = await query<{ credit_note_id: string }>(
    ctx.db,
    sql`SELECT credit_note_id FROM refunds
        WHERE shop_id = ${ctx.shopId} AND order_id = ${orderId} AND status = 'failed' AND credit_note_id IS NOT NULL`,
  );
  return new Set(rows.map((r) => r.credit_note_id));
}
