/**
 * Subscription self-service (docs/digital.md): the signed-in customer's subscriptions, and the e-mailed
 * management links `/api/checkout/abo/:token` (token random, stored as SHA-256, usable for its
 * subscription only). Unknown tokens are 404; failed lookups are rate-limited per client address.
 */

import { Type } from '@sinclair/typebox';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { actorOf, customerSession, publicRoute } from '../../platform/auth/presets.js';
import { sha256 } from '../../platform/crypto.js';
import { credentialEntry } from '../../platform/db/directory.js';
import { query } from '../../platform/db/tx.js';
import { notFound } from '../../platform/errors.js';
import { clientKey } from '../../platform/http/client-key.js';
import { check, consume, type Limit } from '../../platform/http/rate-limit.js';
import type { TypedApp } from '../../platform/http/typed-app.js';
import type { AppDeps } from '../../platform/module.js';
import { productSql } from '../catalog/index.js';
import { aboOut } from './abo-common.js';
import { aboStates } from './abo-states.js';
import { emptyBody } from './abos.routes.js';
import * as S from './abos.schemas.js';
import { cancelAbo, customerAbos, getAbo, resumeAbo } from './abos.service.js';
import { type AboRow, abos } from './digital.tables.js';

/** 60 failed token lookups per client address (an IPv6 client by its /64) per 10 minutes (tokens carry 256 random bits). */
export const TOKEN_GUESS_LIMIT = { max: 60, windowSeconds: 600 };

const guessLimit = (request: FastifyRequest): Limit => ({
  bucket: `abo-token:${clientKey(request.ip)}`,
  ...TOKEN_GUESS_LIMIT,
});

async function byToken(deps: AppDeps, request: FastifyRequest<{ Params: { token: string } }>): Promise<AboRow> {
  const db = deps.database.db;
  const limit = guessLimit(request);
  await check(db, limit);
  const { token } = request.params;
  const hash = sha256(token);
  // the credential directory names the abo's shop; the abo is read in that shop only
  const entry = await credentialEntry(db, 'abo_manage', hash);
  const [row] = entry
    ? await db
        .select()
        .from(abos)
        .where(and(eq(abos.shopId, entry.shopId), eq(abos.id, entry.rowId), eq(abos.manageTokenHash, hash)))
    : [];
  if (!row) {
    await consume(db, limit);
    throw notFound('Subscription');
  }
  return row;
}

async function tokenView(deps: AppDeps, a: AboRow) {
  const [names] = await query<{ plan_name: string; product_name: string }>(
    deps.database.db,
    sql`SELECT pl.name AS plan_name, p.name AS product_name
        FROM abo_plans pl JOIN LATERAL ${productSql(sql`pl.product_id`, sql`pl.shop_id`)} p ON true
        WHERE pl.shop_id = ${a.shopId} AND pl.id = ${a.planId}`,
  );
  return {
    abo: aboOut(a),
    plan_name: names?.plan_name ?? '',
    product_name: names?.product_name ?? '',
    kann_kuendigen: !a.cancelAtPeriodEnd && aboStates.allows(a.status, 'cancel_scheduled'),
    kann_fortsetzen: a.cancelAtPeriodEnd && aboStates.allows(a.status, 'cancel_withdrawn'),
  };
}

/** Customer routes (shop role). */
export function customerAboRoutes(app: TypedApp): void {
  const tags = ['customer'];
  app.get(
    '/api/customer/abos',
    {
      config: customerSession,
      schema: {
        tags,
        summary: "The signed-in customer's subscriptions, newest first",
        response: { 200: Type.Object({ abos: Type.Array(S.AboOut) }) },
      },
    },
    async (request) => {
      const actor = actorOf(request.ctx, customerSession);
      return { abos: (await customerAbos(request.ctx, actor.customerId)).map(aboOut) };
    },
  );

  app.post(
    '/api/customer/abos/:id/kuendigen',
    {
      config: customerSession,
      preValidation: emptyBody,
      schema: {
        tags,
        summary: 'Cancel an own subscription at the end of the paid period (another customer’s is 404)',
        params: S.AboParams,
        body: S.CustomerKuendigenBody,
        response: { 200: S.AboOut },
      },
    },
    async (request) => {
      const { ctx } = request;
      const actor = actorOf(ctx, customerSession);
      const a = await getAbo(ctx, request.params.id);
      if (a.customerId !== actor.customerId) throw notFound('Subscription');
      const grund = request.body.grund ?? null;
      const row = await cancelAbo(ctx, a.id, { sofort: false, grund }, 'customer');
      return aboOut(row);
    },
  );
}

/** Token-link routes (checkout role): the token in the path is the credential. */
export function tokenAboRoutes(app: TypedApp, deps: AppDeps): void {
  const tags = ['checkout'];
  app.get(
    '/api/checkout/abo/:token',
    {
      config: publicRoute,
      schema: {
        tags,
        summary: 'Status page data of the subscription of an e-mailed management link',
        params: S.TokenParams,
        response: { 200: S.TokenView },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return tokenView(deps, await byToken(deps, request));
    },
  );

  app.post(
    '/api/checkout/abo/:token/kuendigen',
    {
      config: { ...publicRoute, idempotency: 'path' },
      preValidation: emptyBody,
      schema: {
        tags,
        summary: 'Cancel at the end of the paid period through the management link',
        params: S.TokenParams,
        body: S.CustomerKuendigenBody,
        response: { 200: S.TokenView },
      },
    },
    async (request) => {
      const a = await byToken(deps, request);
      const grund = request.body.grund ?? null;
      const row = await cancelAbo({ ...request.ctx, shopId: a.shopId }, a.id, { sofort: false, grund }, 'token');
      return tokenView(deps, row);
    },
  );

  app.post(
    '/api/checkout/abo/:token/fortsetzen',
    {
      config: { ...publicRoute, idempotency: 'path' },
      schema: {
        tags,
        summary: 'Withdraw a scheduled cancellation through the management link',
        params: S.TokenParams,
        response: { 200: S.TokenView },
      },
    },
    async (request) => {
      const a = await byToken(deps, request);
      const row = await resumeAbo({ ...request.ctx, shopId: a.shopId }, a.id);
      return tokenView(deps, row);
    },
  );
}
