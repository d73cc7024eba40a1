/**
 * Signed events (docs/webhooks.md): the shop's endpoint and secret, the outbox that turns an event into
 * a delivery job in the transaction of the change, and the job that signs and sends it.
 */
import { createHash, randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { Webhook } from 'standardwebhooks';
import type { Config } from '../../config.js';
import type { Ctx } from '../../platform/auth/types.js';
import { decrypt, encrypt } from '../../platform/crypto.js';
import { iso, isoOrNull } from '../../platform/dates.js';
import { lockOwned } from '../../platform/db/lock.js';
import { type TxCtx, withTx } from '../../platform/db/tx.js';
import { conflict, invalidField, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { enqueue } from '../../platform/jobs/queue.js';
import type { JobContext, JobHandler } from '../../platform/jobs/worker.js';
import { blockedReason, send } from './delivery.js';
import {
  type WebhookDeliveryStatus,
  type WebhookEventType,
  webhookDeliveries,
  webhookEndpoints,
  webhookEvents,
} from './webhooks.tables.js';

export const DELIVER_JOB = 'webhooks.deliver';

/**
 * Delay after the n-th failed attempt: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, 14 h, 20 h —
 * ten attempts over about 2.6 days, then the delivery is dead. Fixed, without jitter, so the
 * delivery log can show the next attempt exactly.
 */
export const RETRY_SCHEDULE_MS = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3600_000,
  5 * 3600_000,
  10 * 3600_000,
  10 * 3600_000,
  14 * 3600_000,
  20 * 3600_000,
];
export const MAX_ATTEMPTS = RETRY_SCHEDULE_MS.length + 1;

export const retryDelayMs = (attempts: number): number =>
  RETRY_SCHEDULE_MS[Math.min(Math.max(attempts, 1), RETRY_SCHEDULE_MS.length) - 1] as number;

// ---- secrets ----

/**
 * Without MASTER_KEY (development only; production refuses to start without it) secrets are
 * encrypted with this fixed, public key, and a warning is logged once. Secrets stored that way
 * cannot be decrypted after a MASTER_KEY is set: rotate them then.
 */
const DEVELOPMENT_KEY = createHash('sha256').update('commerce-service development key for webhook secrets').digest();
let warnedDevelopmentKey = false;

function secretKey(config: Config, log: FastifyBaseLogger): Buffer {
  if (config.masterKey) return config.masterKey;
  if (!warnedDevelopmentKey) {
    warnedDevelopmentKey = true;
    log.warn('MASTER_KEY is not set: webhook secrets are encrypted with a fixed development key (never in production)');
  }
  return DEVELOPMENT_KEY;
}

/** `whsec_` + base64 of 32 random bytes (Standard Webhooks: 24–64 bytes). */
export const newWebhookSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

// ---- endpoint ----

type EndpointRow = typeof webhookEndpoints.$inferSelect;

export const endpointOut = (row: EndpointRow) => ({
  url: row.url,
  created_at: iso(row.createdAt),
  updated_at: iso(row.updatedAt),
});

/**
 * An endpoint URL must be http(s) without credentials; plain http and IP literals in refused
 * ranges pass only with WEBHOOK_ALLOW_PRIVATE=1. Hostnames are checked at every attempt,
 * because what they resolve to can change.
 */
export function checkEndpointUrl(raw: string, allowPrivate: boolean): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalidField('/body/url', 'must be an absolute http(s) URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw invalidField('/body/url', 'must use https');
  if (url.protocol === 'http:' && !allowPrivate) throw invalidField('/body/url', 'must use https');
  if (url.username || url.password) throw invalidField('/body/url', 'must not contain credentials');
  if (url.hash) throw invalidField('/body/url', 'must not contain a fragment');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!allowPrivate && isIP(host)) {
    const reason = blockedReason(host);
    if (reason) throw invalidField('/body/url', `${host} is ${reason} address`);
  }
  if (!allowPrivate && (host === 'localhost' || host.endsWith('.localhost'))) {
    throw invalidField('/body/url', 'must not point to localhost');
  }
  return url.toString();
}

export async function getEndpoint(ctx: Pick<Ctx, 'db' | 'shopId'>): Promise<EndpointRow> {
  const [row] = await ctx.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.shopId, ctx.shopId));
  if (!row) throw notFound('Webhook endpoint');
  return row;
}

/** Creates the endpoint (with a new secret, returned once) or changes its URL (secret kept). */
export async function putEndpoint(
  ctx: Ctx,
  rawUrl: string,
): Promise<{ endpoint: EndpointRow; secret: string | null; created: boolean }> {
  const url = checkEndpointUrl(rawUrl, ctx.config.webhookAllowPrivate);
  const secret = newWebhookSecret();
  const [inserted] = await ctx.db
    .insert(webhookEndpoints)
    .values({ shopId: ctx.shopId, url, secretEncrypted: encrypt(secretKey(ctx.config, ctx.log), secret) })
    .onConflictDoNothing()
    .returning();
  if (inserted) return { endpoint: inserted, secret, created: true };
  const [updated] = await ctx.db
    .update(webhookEndpoints)
    .set({ url, updatedAt: sql`now()` })
    .where(eq(webhookEndpoints.shopId, ctx.shopId))
    .returning();
  if (!updated) throw notFound('Webhook endpoint');
  return { endpoint: updated, secret: null, created: false };
}

/** A new secret; the old one stops signing at once (retries of pending deliveries use the new one). */
export async function rotateSecret(ctx: Ctx): Promise<string> {
  const secret = newWebhookSecret();
  const [row] = await ctx.db
    .update(webhookEndpoints)
    .set({ secretEncrypted: encrypt(secretKey(ctx.config, ctx.log), secret), updatedAt: sql`now()` })
    .where(eq(webhookEndpoints.shopId, ctx.shopId))
    .returning({ shopId: webhookEndpoints.shopId });
  if (!row) throw notFound('Webhook endpoint');
  return secret;
}

// ---- events (the outbox) ----

export interface EmitInput {
  /** e.g. `abo.bezahlt`, `checkout.completed` (docs/webhooks.md). */
  type: WebhookEventType;
  data: Record<string, unknown>;
  isTest: boolean;
  /** Events with one key (a subscription, an order) are delivered strictly in the order emitted. */
  orderingKey?: string;
  /** Business time (the clock): the envelope's `created_at` and when the first attempt is due. */
  now: Date;
}

/**
 * Records an event of `ctx.shopId` and, when the shop has an endpoint, its delivery and the job
 * that sends it — all in a savepoint of the caller's transaction, so they commit with the change
 * that caused them or not at all.
 */
export async function emitEvent(ctx: TxCtx, input: EmitInput): Promise<{ eventId: string; deliveryId: string | null }> {
  const { shopId } = ctx;
  return withTx(ctx.db, async (db) => {
    const eventId = newId('event');
    await db.insert(webhookEvents).values({
      id: eventId,
      shopId,
      type: input.type,
      isTest: input.isTest,
      data: input.data,
      orderingKey: input.orderingKey ?? null,
      createdAt: input.now,
    });
    const [endpoint] = await db
      .select({ url: webhookEndpoints.url })
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.shopId, shopId));
    if (!endpoint) return { eventId, deliveryId: null };
    const deliveryId = newId('delivery');
    const jobId = await enqueue(
      db,
      DELIVER_JOB,
      { delivery_id: deliveryId },
      {
        now: input.now,
        shopId,
        orderingKey: input.orderingKey ? `wh:${shopId}:${input.orderingKey}` : null,
        maxAttempts: MAX_ATTEMPTS,
      },
    );
    await db.insert(webhookDeliveries).values({
      id: deliveryId,
      shopId,
      eventId,
      url: endpoint.url,
      status: 'pending',
      nextAttemptAt: input.now,
      jobId,
      createdAt: input.now,
      updatedAt: input.now,
    });
    return { eventId, deliveryId };
  });
}

/** The Standard Webhooks envelope (docs/webhooks.md). The same bytes on every attempt. */
export function envelope(event: typeof webhookEvents.$inferSelect): string {
  return JSON.stringify({
    id: event.id,
    type: event.type,
    created_at: iso(event.createdAt),
    is_test: event.isTest,
    data: event.data,
  });
}

// ---- deliveries ----

const deliveryColumns = {
  id: webhookDeliveries.id,
  eventId: webhookDeliveries.eventId,
  eventType: webhookEvents.type,
  url: webhookDeliveries.url,
  status: webhookDeliveries.status,
  attempts: webhookDeliveries.attempts,
  lastStatusCode: webhookDeliveries.lastStatusCode,
  lastError: webhookDeliveries.lastError,
  nextAttemptAt: webhookDeliveries.nextAttemptAt,
  deliveredAt: webhookDeliveries.deliveredAt,
  createdAt: webhookDeliveries.createdAt,
};

type DeliveryView = {
  id: string;
  eventId: string;
  eventType: string;
  url: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  nextAttemptAt: Date | null;
  deliveredAt: Date | null;
  createdAt: Date;
};

export const deliveryOut = (d: DeliveryView) => ({
  id: d.id,
  event_id: d.eventId,
  event_type: d.eventType,
  url: d.url,
  status: d.status,
  attempts: d.attempts,
  last_status_code: d.lastStatusCode,
  last_error: d.lastError,
  next_attempt_at: isoOrNull(d.nextAttemptAt),
  delivered_at: isoOrNull(d.deliveredAt),
  created_at: iso(d.createdAt),
});

/** The delivery log, newest first. */
export async function listDeliveries(
  ctx: Ctx,
  opts: { status?: WebhookDeliveryStatus; limit: number; offset: number },
): Promise<{ rows: DeliveryView[]; count: number }> {
  const where = and(
    eq(webhookDeliveries.shopId, ctx.shopId),
    opts.status ? eq(webhookDeliveries.status, opts.status) : undefined,
  );
  const rows = await ctx.db
    .select(deliveryColumns)
    .from(webhookDeliveries)
    .innerJoin(
      webhookEvents,
      and(eq(webhookEvents.shopId, webhookDeliveries.shopId), eq(webhookEvents.id, webhookDeliveries.eventId)),
    )
    .where(where)
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(opts.limit)
    .offset(opts.offset);
  const [total] = await ctx.db.select({ n: sql<number>`count(*)::int` }).from(webhookDeliveries).where(where);
  return { rows, count: Number(total?.n ?? 0) };
}

async function deliveryView(ctx: Ctx, id: string): Promise<DeliveryView> {
  const [row] = await ctx.db
    .select(deliveryColumns)
    .from(webhookDeliveries)
    .innerJoin(
      webhookEvents,
      and(eq(webhookEvents.shopId, webhookDeliveries.shopId), eq(webhookEvents.id, webhookDeliveries.eventId)),
    )
    .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.shopId, ctx.shopId)));
  if (!row) throw notFound('Delivery');
  return row;
}

/**
 * Sends a delivery again now, with the same `webhook-id` and body (docs/webhooks.md). A failed
 * delivery's queued job is simply made due (it keeps its place in its ordering key). A dead or a
 * succeeded one (a resend, as Stripe's and Svix's: the receiver lost it) gets a new job with a
 * fresh retry schedule and no ordering key: later events of its key were already released, so
 * holding them back again would not restore the order. Each send is one more attempt in the log.
 */
export async function retryDelivery(ctx: Ctx, id: string): Promise<DeliveryView> {
  return withTx(ctx, async (t) => {
    const tx = t.db;
    const d = await lockOwned(tx, webhookDeliveries, ctx.shopId, id, 'Delivery');
    if (d.status === 'pending') throw conflict('invalid_state', 'This delivery is already queued');
    const now = ctx.clock.now();
    let jobId = d.jobId;
    if (d.status === 'failed' && jobId) {
      const res = (await tx.execute(
        sql`UPDATE jobs SET run_at = ${now.toISOString()}::timestamptz
            WHERE id = ${jobId} AND status = 'queued' RETURNING id`,
      )) as unknown as { rows: unknown[] };
      if (res.rows.length === 0) {
        const [job] = (
          (await tx.execute(sql`SELECT status FROM jobs WHERE id = ${jobId}`)) as unknown as {
            rows: { status: string }[];
          }
        ).rows;
        if (job?.status === 'running') throw conflict('invalid_state', 'An attempt of this delivery is in progress');
        jobId = null;
      }
    } else {
      jobId = null;
    }
    jobId ??= await enqueue(
      tx,
      DELIVER_JOB,
      { delivery_id: d.id },
      { now, shopId: ctx.shopId, maxAttempts: MAX_ATTEMPTS },
    );
    await tx
      .update(webhookDeliveries)
      .set({ status: 'pending', nextAttemptAt: now, jobId, updatedAt: now })
      .where(and(eq(webhookDeliveries.shopId, d.shopId), eq(webhookDeliveries.id, d.id)));
    return deliveryView(t, d.id);
  });
}

/** Emits a `webhook.test` event (is_test) to the configured endpoint. */
export async function sendTestEvent(ctx: Ctx): Promise<{ eventId: string; deliveryId: string }> {
  await getEndpoint(ctx);
  const { eventId, deliveryId } = await withTx(ctx, (t) =>
    emitEvent(t, {
      type: 'webhook.test',
      data: { message: 'A test event sent from the admin' },
      isTest: true,
      now: ctx.clock.now(),
    }),
  );
  if (!deliveryId) throw notFound('Webhook endpoint');
  return { eventId, deliveryId };
}

// ---- the delivery job ----

/**
 * Signs and sends one delivery. Success marks it succeeded; a failure records the attempt and
 * throws so the queue retries it (the queue's ordering key holds later events of the same key
 * back meanwhile); after the last attempt the delivery is dead. A job that no longer carries
 * the delivery (superseded by a manual retry) or a delivery that already ended does nothing.
 */
export function deliveryJob(config: Config): JobHandler {
  return {
    retryDelayMs,
    async run(payload, jc: JobContext) {
      const deliveryId = String(payload.delivery_id ?? '');
      const shopId = jc.job.shop_id ?? '';
      const [row] = await jc.db
        .select({ delivery: webhookDeliveries, event: webhookEvents })
        .from(webhookDeliveries)
        .innerJoin(
          webhookEvents,
          and(eq(webhookEvents.shopId, webhookDeliveries.shopId), eq(webhookEvents.id, webhookDeliveries.eventId)),
        )
        .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.shopId, shopId)));
      if (!row) return;
      const { delivery, event } = row;
      if (delivery.jobId !== jc.job.id || delivery.status === 'succeeded' || delivery.status === 'dead') return;

      const [endpoint] = await jc.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.shopId, shopId));
      if (!endpoint) {
        const now = jc.clock.now();
        await jc.db
          .update(webhookDeliveries)
          .set({ status: 'dead', lastError: 'No webhook endpoint is configured', nextAttemptAt: null, updatedAt: now })
          .where(and(eq(webhookDeliveries.shopId, delivery.shopId), eq(webhookDeliveries.id, delivery.id)));
        return;
      }

      let secret: string | null = null;
      try {
        secret = decrypt(secretKey(config, jc.log), endpoint.secretEncrypted);
      } catch {
        secret = null;
      }
      const body = envelope(event);
      // Wall-clock time, not the business clock: receivers check it against their own clock
      // (Standard Webhooks, ±5 min), which a simulated clock that was advanced would fail.
      const timestamp = new Date();
      const result = secret
        ? await send({
            url: endpoint.url,
            body,
            allowPrivate: config.webhookAllowPrivate,
            headers: {
              'content-type': 'application/json',
              'user-agent': 'commerce-service-webhooks/1',
              'webhook-id': event.id,
              'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
              'webhook-signature': new Webhook(secret).sign(event.id, timestamp, body),
            },
          })
        : {
            ok: false,
            statusCode: null,
            error: 'The signing secret cannot be decrypted (was MASTER_KEY changed?); rotate the secret',
          };

      const now = jc.clock.now();
      if (result.ok) {
        await jc.db
          .update(webhookDeliveries)
          .set({
            status: 'succeeded',
            url: endpoint.url,
            attempts: sql`${webhookDeliveries.attempts} + 1`,
            lastStatusCode: result.statusCode,
            lastError: null,
            nextAttemptAt: null,
            deliveredAt: now,
            updatedAt: now,
          })
          .where(and(eq(webhookDeliveries.shopId, delivery.shopId), eq(webhookDeliveries.id, delivery.id)));
        return;
      }
      const last = jc.job.attempts >= jc.job.max_attempts;
      await jc.db
        .update(webhookDeliveries)
        .set({
          status: last ? 'dead' : 'failed',
          url: endpoint.url,
          attempts: sql`${webhookDeliveries.attempts} + 1`,
          lastStatusCode: result.statusCode,
          lastError: result.error,
          nextAttemptAt: last ? null : new Date(now.getTime() + retryDelayMs(jc.job.attempts)),
          updatedAt: now,
        })
        .where(and(eq(webhookDeliveries.shopId, delivery.shopId), eq(webhookDeliveries.id, delivery.id)));
      throw new Error(`webhook delivery ${delivery.id} failed: ${result.error}`);
    },
  };
}
