/**
 * The accounting integration (`lexware`): the encrypted API key, the connection check, and the
 * per-order sync of final invoices and credit notes as bookkeeping vouchers. A sync is a job
 * enqueued in the transaction that finalizes a document (docs/ARCHITECTURE.md outbox); the job carries the
 * order's sync row, and a job that no longer carries it (cancelled, superseded by a retry) does
 * nothing. States: none (no row) → pending → synced | failed; pending/failed → cancelled;
 * failed/cancelled → pending (retry).
 */
import { createHash } from 'node:crypto';
import { and, asc, desc, eq, isNull, ne, type SQL, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { type AccountingProvider, type AccountingVoucher, accountingClient } from '../../adapters/accounting/index.js';
import { AccountingError } from '../../adapters/accounting/port.js';
import type { Config } from '../../config.js';
import { type Ctx, systemCtx } from '../../platform/auth/types.js';
import { decrypt, encrypt } from '../../platform/crypto.js';
import { iso, isoOrNull } from '../../platform/dates.js';
import { type TxCtx, withTx } from '../../platform/db/tx.js';
import { AppError, conflict } from '../../platform/errors.js';
import { enqueue } from '../../platform/jobs/queue.js';
import type { JobContext, JobHandler } from '../../platform/jobs/worker.js';
import { getOrder, orderIdsInChannelsSql, orderNumberSql } from '../orders/index.js';
import { categoryOf, type DocumentRow, type DocumentTable } from './documents.js';
import {
  type AccountingSyncStatus,
  accountingConnections,
  accountingSyncs,
  creditNotes,
  invoices,
  type TaxGroup,
} from './finance.tables.js';

export const PROVIDER: AccountingProvider = 'lexware';
export const SYNC_JOB = 'finance.lexware_sync';
const MAX_ATTEMPTS = 6;
/** 30 s, 2 min, 10 min, 1 h, 6 h between job attempts (each attempt already retries 429/5xx). */
const RETRY_SCHEDULE_MS = [30_000, 120_000, 600_000, 3_600_000, 21_600_000];

type SyncRow = typeof accountingSyncs.$inferSelect;

const DEVELOPMENT_KEY = createHash('sha256')
  .update('commerce-service development key for integration secrets')
  .digest();
let warned = false;
function keyFor(config: Config, log: FastifyBaseLogger): Buffer {
  if (config.masterKey) return config.masterKey;
  if (!warned) {
    warned = true;
    log.warn(
      'MASTER_KEY is not set: integration keys are encrypted with a fixed development key (never in production)',
    );
  }
  return DEVELOPMENT_KEY;
}

export async function connect(ctx: Ctx, apiKey: string) {
  const now = ctx.clock.now();
  const sealed = encrypt(keyFor(ctx.config, ctx.log), apiKey.trim());
  const [row] = await ctx.db
    .insert(accountingConnections)
    .values({ shopId: ctx.shopId, provider: PROVIDER, apiKeyEncrypted: sealed, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({
      target: [accountingConnections.shopId, accountingConnections.provider],
      set: { apiKeyEncrypted: sealed, updatedAt: now },
    })
    .returning();
  return {
    provider: PROVIDER,
    connected: true,
    connected_at: iso(row?.createdAt ?? now),
    updated_at: iso(row?.updatedAt ?? now),
  };
}

/**
 * GET /api/admin/credentials/lexware: whether a key is stored and since when — never the key,
 * nor any part of it (the screen shows a mask).
 */
export async function connectionState(ctx: Pick<Ctx, 'db' | 'shopId'>) {
  const [row] = await ctx.db
    .select({ createdAt: accountingConnections.createdAt, updatedAt: accountingConnections.updatedAt })
    .from(accountingConnections)
    .where(and(eq(accountingConnections.shopId, ctx.shopId), eq(accountingConnections.provider, PROVIDER)));
  return {
    provider: PROVIDER,
    connected: row !== undefined,
    connected_at: row ? iso(row.createdAt) : null,
    updated_at: row ? iso(row.updatedAt) : null,
  };
}

async function apiKeyOf(ctx: Ctx): Promise<string | null> {
  const [row] = await ctx.db
    .select()
    .from(accountingConnections)
    .where(and(eq(accountingConnections.shopId, ctx.shopId), eq(accountingConnections.provider, PROVIDER)));
  if (!row) return null;
  try {
    return decrypt(keyFor(ctx.config, ctx.log), row.apiKeyEncrypted);
  } catch {
    throw new AppError(
      'credential_unreadable',
      'The stored Lexware key cannot be decrypted (was MASTER_KEY changed?); connect again',
    );
  }
}

const notConnected = () =>
  conflict('lexware_not_connected', 'Lexware is not connected; POST /api/admin/credentials/lexware/connect first');

/** Calls the provider with the stored key: ok, or the provider's error. */
export async function testConnection(ctx: Ctx) {
  const key = await apiKeyOf(ctx);
  if (!key) throw notConnected();
  try {
    const profile = await accountingClient(PROVIDER, ctx.config, key).testConnection();
    return {
      ok: true,
      provider: PROVIDER,
      organization_id: profile.organizationId,
      company_name: profile.companyName,
      provider_status: 200,
      error: null,
    };
  } catch (err) {
    if (!(err instanceof AccountingError)) throw err;
    return {
      ok: false,
      provider: PROVIDER,
      organization_id: null,
      company_name: null,
      provider_status: err.status,
      error: err.message,
    };
  }
}

/**
 * Marks the order's sync pending and enqueues the job, in the caller's transaction — when the
 * shop has connected Lexware and the admin has not cancelled the order's sync.
 */
export async function scheduleAccountingSync(ctx: TxCtx, orderId: string, now: Date): Promise<void> {
  const { db: tx, shopId } = ctx;
  const [connection] = await tx
    .select({ shopId: accountingConnections.shopId })
    .from(accountingConnections)
    .where(and(eq(accountingConnections.shopId, shopId), eq(accountingConnections.provider, PROVIDER)));
  if (!connection) return;
  const [current] = await tx.select().from(accountingSyncs).where(syncKey(shopId, orderId)).for('update');
  if (current?.status === 'cancelled') return;
  await startSync(ctx, orderId, now, current);
}

function syncKey(shopId: string, orderId: string) {
  return and(
    eq(accountingSyncs.shopId, shopId),
    eq(accountingSyncs.orderId, orderId),
    eq(accountingSyncs.provider, PROVIDER),
  );
}

async function startSync(ctx: TxCtx, orderId: string, now: Date, current: SyncRow | undefined) {
  const { db: tx, shopId } = ctx;
  const jobId = await enqueue(
    tx,
    SYNC_JOB,
    { order_id: orderId },
    {
      shopId,
      now,
      orderingKey: `lexware:${orderId}`,
      maxAttempts: MAX_ATTEMPTS,
    },
  );
  if (current) {
    await tx
      .update(accountingSyncs)
      .set({ status: 'pending', jobId, lastError: null, updatedAt: now })
      .where(syncKey(shopId, orderId));
  } else {
    await tx.insert(accountingSyncs).values({
      shopId,
      orderId,
      provider: PROVIDER,
      status: 'pending',
      jobId,
      createdAt: now,
      updatedAt: now,
    });
  }
}

export function syncOut(orderId: string, row: SyncRow | undefined) {
  return {
    order_id: orderId,
    provider: PROVIDER,
    status: row?.status ?? ('none' as const),
    provider_id: row?.providerId ?? null,
    last_error: row?.lastError ?? null,
    attempts: row?.attempts ?? 0,
    synced_at: isoOrNull(row?.syncedAt),
    updated_at: row ? iso(row.updatedAt) : null,
  };
}

export async function getSync(ctx: Ctx, orderId: string) {
  await getOrder(ctx, orderId);
  const [row] = await ctx.db.select().from(accountingSyncs).where(syncKey(ctx.shopId, orderId));
  return syncOut(orderId, row);
}

/** failed / cancelled → pending, with a new job; anything else is 409. */
export async function retrySync(ctx: Ctx, orderId: string) {
  await getOrder(ctx, orderId);
  return withTx(ctx, async (t) => {
    const tx = t.db;
    const [row] = await tx.select().from(accountingSyncs).where(syncKey(ctx.shopId, orderId)).for('update');
    const status = row?.status ?? 'none';
    if (status !== 'failed' && status !== 'cancelled') {
      throw conflict('invalid_state', `A sync in state ${status} cannot be retried (only failed or cancelled)`);
    }
    const [connection] = await tx
      .select({ shopId: accountingConnections.shopId })
      .from(accountingConnections)
      .where(and(eq(accountingConnections.shopId, ctx.shopId), eq(accountingConnections.provider, PROVIDER)));
    if (!connection) throw notConnected();
    await startSync(t, orderId, ctx.clock.now(), row);
    const [updated] = await tx.select().from(accountingSyncs).where(syncKey(ctx.shopId, orderId));
    return syncOut(orderId, updated);
  });
}

/** pending / failed → cancelled: the queued job finds it no longer carries the sync. */
export async function cancelSync(ctx: Ctx, orderId: string) {
  await getOrder(ctx, orderId);
  return withTx(ctx, async (t) => {
    const tx = t.db;
    const [row] = await tx.select().from(accountingSyncs).where(syncKey(ctx.shopId, orderId)).for('update');
    const status = row?.status ?? 'none';
    if (status !== 'pending' && status !== 'failed') {
      throw conflict('invalid_state', `A sync in state ${status} cannot be cancelled (only pending or failed)`);
    }
    const [updated] = await tx
      .update(accountingSyncs)
      .set({ status: 'cancelled', jobId: null, updatedAt: ctx.clock.now() })
      .where(syncKey(ctx.shopId, orderId))
      .returning();
    return syncOut(orderId, updated);
  });
}

const items = (groups: TaxGroup[]) =>
  groups.map((g) => ({
    grossCents: g.gross_cents,
    taxCents: g.tax_cents,
    taxRate: g.tax_rate,
    taxCategory: categoryOf(g),
  }));

/** The job: books every final document of the order that has no voucher yet, oldest first. */
export function syncJob(config: Config): JobHandler {
  return {
    retryDelayMs: (attempts) =>
      RETRY_SCHEDULE_MS[Math.min(Math.max(attempts, 1), RETRY_SCHEDULE_MS.length) - 1] as number,
    async run(payload, jc: JobContext) {
      const orderId = String(payload.order_id ?? '');
      const shopId = jc.job.shop_id ?? '';
      const ctx = systemCtx({ db: jc.db, clock: jc.clock, config }, shopId, jc.log);
      const [sync] = await jc.db.select().from(accountingSyncs).where(syncKey(shopId, orderId));
      if (sync?.status !== 'pending' || sync.jobId !== jc.job.id) return;
      const record = (set: Partial<SyncRow>) =>
        jc.db
          .update(accountingSyncs)
          .set({ ...set, updatedAt: jc.clock.now() })
          .where(
            and(syncKey(shopId, orderId), eq(accountingSyncs.jobId, jc.job.id), eq(accountingSyncs.status, 'pending')),
          );

      let key: string | null;
      try {
        key = await apiKeyOf(ctx);
      } catch (err) {
        await record({ status: 'failed', lastError: (err as Error).message, attempts: sync.attempts + 1 });
        return;
      }
      if (!key) {
        await record({ status: 'failed', lastError: 'Lexware is not connected', attempts: sync.attempts + 1 });
        return;
      }
      const client = accountingClient(PROVIDER, config, key);
      const docs = await pendingDocuments(ctx, orderId);
      let invoiceVoucher = sync.providerId;
      try {
        for (const d of docs) {
          const { id } = await client.createVoucher(d.voucher);
          // recorded at once, so a later failure never books this document twice
          if (d.kind === 'invoice') {
            await jc.db
              .update(invoices)
              .set({ lexwareVoucherId: id })
              .where(and(eq(invoices.shopId, shopId), eq(invoices.id, d.id)));
            invoiceVoucher = id;
          } else {
            await jc.db
              .update(creditNotes)
              .set({ lexwareVoucherId: id })
              .where(and(eq(creditNotes.shopId, shopId), eq(creditNotes.id, d.id)));
          }
        }
      } catch (err) {
        const e = err instanceof AccountingError ? err : new AccountingError((err as Error).message, null, true);
        const last = !e.retryable || jc.job.attempts >= jc.job.max_attempts;
        await record({
          status: last ? 'failed' : 'pending',
          lastError: e.message.slice(0, 1000),
          attempts: sync.attempts + 1,
          providerId: invoiceVoucher,
        });
        if (!last) throw e;
        return;
      }
      await record({
        status: 'synced',
        providerId: invoiceVoucher,
        lastError: null,
        attempts: sync.attempts + 1,
        syncedAt: jc.clock.now(),
        jobId: null,
      });
    },
  };
}

/** An order's final documents (any state but draft) of one kind not booked yet, in the order they were finalized. */
async function unbooked<T extends DocumentTable>(ctx: Ctx, table: T, orderId: string): Promise<DocumentRow<T>[]> {
  const rows = await ctx.db
    .select()
    .from(table as DocumentTable)
    .where(
      and(
        eq(table.shopId, ctx.shopId),
        eq(table.orderId, orderId),
        ne(table.status, 'draft'),
        isNull(table.lexwareVoucherId),
      ),
    )
    .orderBy(asc(table.finalizedAt));
  return rows as DocumentRow<T>[];
}

/** A final document as a voucher; `own` holds its kind and the fields that differ by kind. */
function voucherOf(
  d: DocumentRow<DocumentTable>,
  own: Pick<AccountingVoucher, 'kind' | 'dueDate' | 'serviceDate' | 'remark'>,
): AccountingVoucher {
  return {
    ...own,
    number: d.number as string,
    date: d.issueDate as string,
    currency: d.currency,
    totalGrossCents: d.totalCents,
    totalTaxCents: d.taxCents,
    items: items(d.taxGroups),
  };
}

async function pendingDocuments(ctx: Ctx, orderId: string) {
  const invs = await unbooked(ctx, invoices, orderId);
  const cns = await unbooked(ctx, creditNotes, orderId);
  return [
    ...invs.map((i) => ({
      kind: 'invoice' as const,
      id: i.id,
      voucher: voucherOf(i, {
        kind: 'invoice',
        dueDate: i.dueDate,
        serviceDate: i.serviceDate,
        remark: `Bestellung ${i.orderNumber}`,
      }),
    })),
    ...cns.map((c) => ({
      kind: 'credit_note' as const,
      id: c.id,
      voucher: voucherOf(c, {
        kind: 'credit_note',
        dueDate: null,
        serviceDate: null,
        remark: `Gutschrift zu Rechnung ${c.invoiceNumber}`,
      }),
    })),
  ];
}

/**
 * GET /api/admin/accounting/syncs: the shop's order syncs, most recently changed first, with the
 * provider's message (`last_error`) and the order number; `status` filters (failed: what needs a
 * retry). A channel-restricted employee sees the syncs of their channels' orders only.
 */
export async function listSyncs(
  ctx: Ctx,
  f: { status?: AccountingSyncStatus; limit: number; offset: number },
  restricted: string[] | null,
) {
  const conds: (SQL | undefined)[] = [
    eq(accountingSyncs.shopId, ctx.shopId),
    eq(accountingSyncs.provider, PROVIDER),
    f.status ? eq(accountingSyncs.status, f.status) : undefined,
    restricted === null
      ? undefined
      : sql`${accountingSyncs.orderId} IN ${orderIdsInChannelsSql(ctx.shopId, restricted)}`,
  ];
  const where = and(...conds);
  const [rows, total] = await Promise.all([
    ctx.db
      .select({
        row: accountingSyncs,
        orderNumber: orderNumberSql(sql`${accountingSyncs.orderId}`, sql`${accountingSyncs.shopId}`),
      })
      .from(accountingSyncs)
      .where(where)
      .orderBy(desc(accountingSyncs.updatedAt), desc(accountingSyncs.orderId))
      .limit(f.limit)
      .offset(f.offset),
    ctx.db.select({ n: sql<number>`count(*)::int` }).from(accountingSyncs).where(where),
  ]);
  return {
    syncs: rows.map(({ row, orderNumber }) => ({
      ...syncOut(row.orderId, row),
      order_number: orderNumber ?? null,
      created_at: iso(row.createdAt),
    })),
    count: Number(total[0]?.n ?? 0),
    limit: f.limit,
    offset: f.offset,
  };
}
