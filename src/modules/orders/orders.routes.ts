/** Order routes: admin reads and state changes, and the customer's own orders. */

import { Type } from '@sinclair/typebox';
import { actorOf, anyEmployee, customerSession, manageMoney } from '../../platform/auth/presets.js';
import { PageMeta, Pagination, pageOf } from '../../platform/http/schemas.js';
import type { TypedApp } from '../../platform/http/typed-app.js';
import type { OrderStatus } from './order-states.js';
import { OrderDetail, OrderListQuery, OrderSummary } from './orders.schemas.js';
import { getOrder, listOrders, orderDetailOut, orderOut, transitionOrder } from './orders.service.js';

const tags = ['orders'];
const Params = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
const ListResponse = Type.Object({ orders: Type.Array(OrderSummary), ...PageMeta });

const ACTIONS: { path: string; to: OrderStatus; summary: string }[] = [
  { path: 'mark-paid', to: 'paid', summary: 'Record the payment of an unpaid order' },
  { path: 'fulfill', to: 'fulfilled', summary: 'Mark a paid order fulfilled' },
  { path: 'cancel', to: 'cancelled', summary: 'Cancel an order (an unpaid order gives its stock back)' },
];

export function orderRoutes(app: TypedApp): void {
  app.get(
    '/api/admin/orders',
    {
      config: anyEmployee,
      schema: {
        tags,
        summary: 'List orders, newest first',
        querystring: OrderListQuery,
        response: { 200: ListResponse },
      },
    },
    async (request) => {
      const q = request.query;
      const { limit, offset } = pageOf(q);
      const { rows, count } = await listOrders(request.ctx, { ...q, limit, offset });
      return { orders: rows.map((o) => orderOut(o)), count, limit, offset };
    },
  );

  app.get(
    '/api/admin/orders/:id',
    {
      config: anyEmployee,
      schema: {
        tags,
        summary: 'Read an order with its lines',
        params: Params,
        response: { 200: Type.Object({ order: OrderDetail }) },
      },
    },
    async (request) => {
      const { order, lines } = await getOrder(request.ctx, request.params.id);
      return { order: orderDetailOut(order, lines) };
    },
  );

  for (const action of ACTIONS) {
    app.post(
      `/api/admin/orders/:id/${action.path}`,
      {
        config: manageMoney,
        schema: { tags, summary: action.summary, params: Params, response: { 200: OrderSummary } },
      },
      async (request) => orderOut(await transitionOrder(request.ctx, request.params.id, action.to)),
    );
  }

  app.get(
    '/api/customer/orders',
    {
      config: customerSession,
      schema: {
        tags: ['customer'],
        summary: "The signed-in customer's orders",
        querystring: Type.Object(Pagination, { additionalProperties: false }),
        response: { 200: ListResponse },
      },
    },
    async (request) => {
      const q = request.query;
      const { limit, offset } = pageOf(q);
      const actor = actorOf(request.ctx, customerSession);
      const { rows, count } = await listOrders(request.ctx, { customer_id: actor.customerId, limit, offset });
      return { orders: rows.map((o) => orderOut(o)), count, limit, offset };
    },
  );
}
