/**
 * Idempotency-Key on POST (docs/ARCHITECTURE.md): the first response to a key is stored for 24 h per shop
 * and caller; the same key and body replays it, another body is 409, and a concurrent request
 * with the key waits for the first to finish instead of running the handler again. The stored
 * answer is encrypted with MASTER_KEY: it may hold a secret shown once (a new API token, a session
 * token, a webhook signing secret) that the database otherwise keeps only hashed or encrypted.
 */
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { principalOf } from '../auth/types.js';
import { decrypt, encrypt, sha256 } from '../crypto.js';
import type { Db } from '../db/client.js';
import { query } from '../db/tx.js';
import { AppError } from '../errors.js';

const TTL_HOURS = 24;
const WAIT_MS = 15_000;
/**
 * The process running a request renews its claim's heartbeat every HEARTBEAT_MS; a `running`
 * record whose heartbeat is older than ABANDONED_SECONDS belongs to a process that died (killed
 * mid-request) and is taken over (issue 14: seconds, not minutes).
 */
const HEARTBEAT_MS = 2_000;
const ABANDONED_SECONDS = 10;
const heartbeats = new WeakMap<FastifyRequest, NodeJS.Timeout>();

interface Claimed {
  shopId: string;
  principal: string;
  key: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    idempotency?: Claimed;
  }
  interface FastifyContextConfig {
    /**
     * `path`: a public route whose credential is the token in its path (the e-mailed subscription
     * link) honours the key too, scoped to that path. Other public routes ignore the header.
     */
    idempotency?: 'path';
  }
}

interface Row {
  request_hash: string;
  state: string;
  status_code: number | null;
  response_body: string | null;
  response_headers: Record<string, string> | null;
  stale: boolean;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function tryClaim(db: Db, c: Claimed, hash: string): Promise<boolean> {
  const rows = await query(
    db,
    sql`INSERT INTO idempotency_keys (shop_id, principal, key, request_hash, state, expires_at)
        VALUES (${c.shopId}, ${c.principal}, ${c.key}, ${hash}, 'running', now() + make_interval(hours => ${TTL_HOURS}))
        ON CONFLICT (shop_id, principal, key) DO NOTHING RETURNING key`,
  );
  return rows.length === 1;
}

/** Expired, or still running with a heartbeat too old: its process died. */
const staleSql = sql`(expires_at < now() OR (state = 'running' AND heartbeat_at < now() - make_interval(secs => ${ABANDONED_SECONDS})))`;

async function load(db: Db, c: Claimed): Promise<Row | undefined> {
  const rows = await query<Row>(
    db,
    sql`SELECT request_hash, state, status_code, response_body, response_headers, ${staleSql} AS stale
        FROM idempotency_keys WHERE shop_id = ${c.shopId} AND principal = ${c.principal} AND key = ${c.key}`,
  );
  return rows[0];
}

function stopHeartbeat(request: FastifyRequest): void {
  const timer = heartbeats.get(request);
  if (timer) clearInterval(timer);
  heartbeats.delete(request);
}

async function release(db: Db, c: Claimed): Promise<void> {
  await db.execute(
    sql`DELETE FROM idempotency_keys WHERE shop_id = ${c.shopId} AND principal = ${c.principal} AND key = ${c.key} AND state = 'running'`,
  );
}

/** A stored answer: encrypted (`v1.…`), or plain from before answers were encrypted. */
function storedBody(key: Buffer, body: string | null): string {
  if (!body?.startsWith('v1.')) return body ?? '';
  try {
    return decrypt(key, body);
  } catch {
    throw new AppError(
      'idempotency_key_reused',
      'The stored answer of this Idempotency-Key cannot be read (the master key changed); use a new key',
    );
  }
}

/** `sealKey` encrypts the stored answers (platform/crypto `atRestKey`). */
export function registerIdempotency(app: FastifyInstance, db: Db, sealKey: Buffer): void {
  app.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.method !== 'POST') return;
    const raw = request.headers['idempotency-key'];
    if (raw === undefined) return;
    const { auth, idempotency } = request.routeOptions.config;
    if (!auth) return;
    const byPath = auth.accepts === 'public';
    if (byPath && idempotency !== 'path') return;
    const key = Array.isArray(raw) ? raw[0] : raw;
    if (!key || key.length > 255) {
      throw new AppError('validation_failed', 'Idempotency-Key must be 1 to 255 characters', [
        { path: '/headers/idempotency-key', message: 'must be 1 to 255 characters' },
      ]);
    }
    // the path's token is the credential: stored only as a hash, like the token itself
    const principal = byPath ? `path:${sha256(request.url.split('?')[0] ?? '')}` : principalOf(request.ctx.actor);
    const claimed: Claimed = { shopId: request.ctx.shopId, principal, key };
    // a raw body (an image upload) is hashed as bytes, not as the JSON of a Buffer
    const body = Buffer.isBuffer(request.body)
      ? `raw:${createHash('sha256').update(request.body).digest('hex')}`
      : JSON.stringify(request.body ?? null);
    const hash = sha256(`${request.method} ${request.url}\n${body}`);
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      if (await tryClaim(db, claimed, hash)) {
        request.idempotency = claimed;
        const timer = setInterval(() => {
          db.execute(
            sql`UPDATE idempotency_keys SET heartbeat_at = now()
                WHERE shop_id = ${claimed.shopId} AND principal = ${claimed.principal} AND key = ${claimed.key}
                  AND state = 'running'`,
          ).catch((err) => request.log.warn({ err }, 'idempotency heartbeat failed'));
        }, HEARTBEAT_MS);
        timer.unref();
        heartbeats.set(request, timer);
        return;
      }
      const row = await load(db, claimed);
      if (!row) continue;
      if (row.stale) {
        // only while it is still stale: another waiter may have taken the key over meanwhile
        await db.execute(
          sql`DELETE FROM idempotency_keys WHERE shop_id = ${claimed.shopId} AND principal = ${claimed.principal} AND key = ${key}
                AND ${staleSql}`,
        );
        continue;
      }
      if (row.request_hash !== hash) {
        throw new AppError(
          'idempotency_key_reused',
          'This Idempotency-Key was used with a different request; use a new key',
        );
      }
      if (row.state === 'done') {
        const body = storedBody(sealKey, row.response_body);
        reply.headers(row.response_headers ?? {});
        reply.header('idempotent-replayed', 'true');
        return reply.code(row.status_code ?? 200).send(body);
      }
      if (Date.now() > deadline) {
        throw new AppError('idempotency_key_in_use', 'A request with this Idempotency-Key is still in progress');
      }
      await sleep(50);
    }
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const claimed = request.idempotency;
    if (!claimed) return payload;
    request.idempotency = undefined;
    stopHeartbeat(request);
    if (reply.statusCode >= 500 || reply.statusCode === 429 || typeof payload !== 'string') {
      // Nothing was done (or we cannot tell), or a rate limit said "later": let a retry with the
      // same key run again.
      await release(db, claimed);
      return payload;
    }
    const headers: Record<string, string> = {};
    const ct = reply.getHeader('content-type');
    if (typeof ct === 'string') headers['content-type'] = ct;
    // the headers that are part of the answer (a storefront reads the channel it got from x-channel-id)
    for (const name of ['location', 'x-channel-id']) {
      const value = reply.getHeader(name);
      if (typeof value === 'string') headers[name] = value;
    }
    await db.execute(
      sql`UPDATE idempotency_keys SET state = 'done', status_code = ${reply.statusCode}, response_body = ${encrypt(sealKey, payload)},
                 response_headers = ${JSON.stringify(headers)}::jsonb
          WHERE shop_id = ${claimed.shopId} AND principal = ${claimed.principal} AND key = ${claimed.key}`,
    );
    return payload;
  });

  // A request that failed before onSend (e.g. the connection closed) must not hold its key.
  app.addHook('onResponse', async (request) => {
    stopHeartbeat(request);
    if (request.idempotency) await release(db, request.idempotency);
  });
}
