/** Routes of docs/webhooks.md: the shop's checkout webhook destination and its delivery log. */
import { manageMoneyAllChannels } from '../../platform/auth/presets.js';
import { IdParams, pageOf } from '../../platform/http/schemas.js';
import type { TypedApp } from '../../platform/http/typed-app.js';
import * as S from './webhooks.schemas.js';
import * as svc from './webhooks.service.js';

const tags = ['webhooks'];
const BASE = '/api/admin/checkout/webhook';

export function webhookRoutes(app: TypedApp): void {
  app.get(
    BASE,
    {
      config: manageMoneyAllChannels,
      schema: {
        tags,
        summary: "The shop's checkout webhook destination (404 when none is configured)",
        response: { 200: S.EndpointSchema },
      },
    },
    async (request) => svc.endpointOut(await svc.getEndpoint(request.ctx)),
  );

  app.put(
    BASE,
    {
      config: manageMoneyAllChannels,
      schema: {
        tags,
        summary: 'Set the destination URL; on creation (201) the response carries the signing secret, shown once',
        body: S.EndpointPut,
        response: { 200: S.EndpointCreated, 201: S.EndpointCreated },
      },
    },
    async (request, reply) => {
      const { endpoint, secret, created } = await svc.putEndpoint(request.ctx, request.body.url);
      return reply.code(created ? 201 : 200).send({ ...svc.endpointOut(endpoint), ...(secret ? { secret } : {}) });
    },
  );

  app.post(
    `${BASE}/rotate-secret`,
    {
      config: manageMoneyAllChannels,
      schema: {
        tags,
        summary: 'Replace the signing secret; the old one is invalid at once (shown once)',
        response: { 200: S.SecretResponse },
      },
    },
    async (request) => ({ secret: await svc.rotateSecret(request.ctx) }),
  );

  app.post(
    `${BASE}/test`,
    {
      config: manageMoneyAllChannels,
      schema: {
        tags,
        summary: 'Send a `webhook.test` event (is_test) to the destination',
        response: { 202: S.TestEventResponse },
      },
    },
    async (request, reply) => {
      const { eventId, deliveryId } = await svc.sendTestEvent(request.ctx);
      return reply.code(202).send({ event_id: eventId, delivery_id: deliveryId });
    },
  );

  app.get(
    `${BASE}/deliveries`,
    {
      config: manageMoneyAllChannels,
      schema: {
        tags,
        summary: 'The delivery log, newest first',
        querystring: S.DeliveriesQuery,
        response: { 200: S.DeliveriesResponse },
      },
    },
    async (request) => {
      const q = request.query;
      const { limit, offset } = pageOf(q);
      const { rows, count } = await svc.listDeliveries(request.ctx, { status: q.status, limit, offset });
      return { deliveries: rows.map(svc.deliveryOut), count, limit, offset };
    },
  );

  app.post(
    `${BASE}/deliveries/:id/retry`,
    {
      config: manageMoneyAllChannels,
      schema: {
        tags,
        summary: 'Send a delivery again now (a succeeded one too), with the same webhook-id and body (queued: 409)',
        params: IdParams,
        response: { 202: S.DeliverySchema },
      },
    },
    async (request, reply) =>
      reply.code(202).send(svc.deliveryOut(await svc.retryDelivery(request.ctx, request.params.id))),
  );
}
