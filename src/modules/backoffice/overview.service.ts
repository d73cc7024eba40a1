/**
 * GET /api/admin/overview ("Heute"): what needs doing today and the revenue of today and this
 * month, in one read. Each owner counts its own tables (orders, finance, webhooks, mail: their
 * exported queries, each one statement of index-backed counts); the employee's role decides which
 * tiles they get (a tile whose list they may not open is null) and a channel restriction limits
 * every order-bound count to their channels. docs/decisions.md "The overview".
 */
import type { Static } from '@sinclair/typebox';
import { sql } from 'drizzle-orm';
import { failedEmailCount } from '../../adapters/mail/index.js';
import { type Ctx, MANAGERS } from '../../platform/auth/types.js';
import { iso, pgDate } from '../../platform/dates.js';
import { query } from '../../platform/db/tx.js';
import { financeOverviewCounts, loadSettings } from '../finance/index.js';
import { FAILED_REFUND_DAYS, orderOverviewCounts, revenueSince } from '../orders/index.js';
import { deadDeliveryCount } from '../webhooks/index.js';
import type { Overview } from './backoffice.schemas.js';

/** Unpaid orders whose payment time ends within this many hours count as due soon. */
export const DUE_SOON_HOURS = 24;
/** Failed e-mails stay on the overview this long. */
export const FAILED_EMAIL_DAYS = 7;

type Link = { path: string; query: Record<string, string> } | null;
const tile = (count: number, link: Link) => ({ count, link });

export async function overview(ctx: Ctx): Promise<Static<typeof Overview>> {
  const actor = ctx.actor;
  if (actor?.kind !== 'admin') throw new Error('the overview is for signed-in employees');
  const channels = actor.channelRestricted ? actor.channelIds : null;
  const manager = MANAGERS.includes(actor.role);
  // shop-wide infrastructure (webhooks, e-mails) shows only to managers who see every channel
  const shopWide = manager && channels === null;
  const now = ctx.clock.now();
  const settings = await loadSettings(ctx);
  const tz = settings.timeZone;
  const [starts] = await query<{ day: string; month: string }>(
    ctx.db,
    sql`SELECT (date_trunc('day', ${now.toISOString()}::timestamptz AT TIME ZONE ${tz}) AT TIME ZONE ${tz}) AS day,
               (date_trunc('month', ${now.toISOString()}::timestamptz AT TIME ZONE ${tz}) AT TIME ZONE ${tz}) AS month`,
  );
  const day = pgDate(starts?.day as string);
  const month = pgDate(starts?.month as string);
  const dueBefore = new Date(now.getTime() + DUE_SOON_HOURS * 3600_000);
  const [orders, finance, dead, emails, revenue] = await Promise.all([
    orderOverviewCounts(ctx, { channels, now, dueBefore }),
    manager ? financeOverviewCounts(ctx, channels) : null,
    shopWide ? deadDeliveryCount(ctx) : null,
    shopWide ? failedEmailCount(ctx, new Date(now.getTime() - FAILED_EMAIL_DAYS * 86_400_000)) : null,
    manager ? revenueSince(ctx, { channels, since: { today: day, month } }) : null,
  ]);
  return {
    now: iso(now),
    time_zone: tz,
    tiles: {
      orders_paid_unfulfilled: tile(orders.paid_unfulfilled, { path: '/api/admin/orders', query: { status: 'paid' } }),
      orders_unpaid_due_soon: tile(orders.unpaid_due_soon, {
        path: '/api/admin/orders',
        query: { status: 'pending_payment', sort: 'created_at' },
      }),
      // no shop-wide refund list yet: the page links these to the orders they concern
      refunds_pending: manager ? tile(orders.refunds_pending, null) : null,
      refunds_failed: manager ? tile(orders.refunds_failed, null) : null,
      invoices_draft: finance
        ? tile(finance.invoices_draft, { path: '/api/admin/invoices', query: { status: 'draft' } })
        : null,
      accounting_failed: finance
        ? tile(finance.accounting_failed, { path: '/api/admin/accounting/syncs', query: { status: 'failed' } })
        : null,
      webhooks_dead:
        dead === null
          ? null
          : tile(dead, { path: '/api/admin/checkout/webhook/deliveries', query: { status: 'dead' } }),
      emails_failed: emails === null ? null : tile(emails, { path: '/api/admin/emails', query: { status: 'failed' } }),
    },
    revenue: revenue
      ? {
          today: revenue.today ?? [],
          month: revenue.month ?? [],
          today_from: iso(day),
          month_from: iso(month),
        }
      : null,
  };
}

export { FAILED_REFUND_DAYS };
