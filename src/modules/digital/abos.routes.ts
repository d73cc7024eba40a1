/** Admin routes of subscriptions (docs/digital.md): list, statistik, detail, kuendigen, fortsetzen. */
import type { FastifyRequest } from 'fastify';
import { manageDigital, readDigital } from '../../platform/auth/presets.js';
import type { TypedApp } from '../../platform/http/typed-app.js';
import { orderOut } from '../orders/index.js';
import { aboOut } from './abo-common.js';
import { aboEventsOf, aboVerlauf } from './abo-history.js';
import * as S from './abos.schemas.js';
import * as svc from './abos.service.js';

const tags = ['digital'];

/** POSTs whose body is optional: no body means `{}`. */
export async function emptyBody(request: FastifyRequest): Promise<void> {
  if (request.body === undefined || request.body === null) request.body = {};
}

export function aboRoutes(app: TypedApp): void {
  app.get(
    '/api/admin/digital/abos',
    {
      config: readDigital,
      schema: {
        tags,
        summary: 'Subscriptions, newest first, at most 500 per page (filters plan_id, q, test, status; limit, offset)',
        querystring: S.AboListQuery,
        response: { 200: S.AboList },
      },
    },
    async (request) => {
      const { rows, count } = await svc.listAbos(request.ctx, request.query);
      return {
        abos: rows.map(aboOut),
        count,
        limit: request.query.limit ?? svc.LIST_CAP,
        offset: request.query.offset ?? 0,
      };
    },
  );

  app.get(
    '/api/admin/digital/abos/statistik',
    {
      config: readDigital,
      schema: {
        tags,
        summary: 'Counts per list filter and the monthly recurring revenue',
        querystring: S.StatistikQuery,
        response: { 200: S.Statistik },
      },
    },
    async (request) => svc.statistics(request.ctx, request.query.test),
  );

  app.get(
    '/api/admin/digital/abos/statistik/verlauf',
    {
      config: readDigital,
      schema: {
        tags,
        summary:
          'The history the Statistik charts draw: MRR per day and currency, new / cancelled / churned per month, trial conversion (at most 400 days)',
        querystring: S.VerlaufQuery,
        response: { 200: S.Verlauf },
      },
    },
    async (request) => aboVerlauf(request.ctx, request.query),
  );

  app.get(
    '/api/admin/digital/abos/:id/events',
    {
      config: readDigital,
      schema: {
        tags,
        summary: 'The event history of a subscription, oldest first',
        params: S.AboParams,
        response: { 200: S.AboEvents },
      },
    },
    async (request) => ({ events: await aboEventsOf(request.ctx, request.params.id) }),
  );

  app.get(
    '/api/admin/digital/abos/:id',
    {
      config: readDigital,
      schema: { tags, summary: 'A subscription and its orders', params: S.AboParams, response: { 200: S.AboDetail } },
    },
    async (request) => {
      const { abo, bestellungen } = await svc.aboDetail(request.ctx, request.params.id);
      return { abo: aboOut(abo), bestellungen: bestellungen.map((o) => orderOut(o)) };
    },
  );

  app.post(
    '/api/admin/digital/abos/:id/kuendigen',
    {
      config: manageDigital,
      preValidation: emptyBody,
      schema: {
        tags,
        summary: 'Cancel: sofort true ends now, false (default) at the end of the paid period',
        params: S.AboParams,
        body: S.KuendigenBody,
        response: { 200: S.AboOut },
      },
    },
    async (request) => {
      const { ctx } = request;
      const abo = await svc.cancelAbo(ctx, request.params.id, request.body, 'admin');
      return aboOut(abo);
    },
  );

  app.post(
    '/api/admin/digital/abos/:id/fortsetzen',
    {
      config: manageDigital,
      schema: {
        tags,
        summary: 'Withdraw a scheduled cancellation (409 invalid_state when none is scheduled)',
        params: S.AboParams,
        response: { 200: S.AboOut },
      },
    },
    async (request) => {
      const { ctx } = request;
      const abo = await svc.resumeAbo(ctx, request.params.id);
      return aboOut(abo);
    },
  );
}
