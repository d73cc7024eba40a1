/** Back office routes: saved views, the overview, the order timeline and the refund preview (thin: schema, auth, one call). */
import { Type } from '@sinclair/typebox';
import { anyEmployee, manageMoney } from '../../platform/auth/presets.js';
import { NoContent } from '../../platform/http/schemas.js';
import type { TypedApp } from '../../platform/http/typed-app.js';
import {
  Overview,
  RefundPreview,
  RefundPreviewBody,
  SavedView,
  SavedViewCreate,
  SavedViewListQuery,
  SavedViewUpdate,
  Timeline,
} from './backoffice.schemas.js';
import { overview } from './overview.service.js';
import { previewRefund } from './refund-preview.service.js';
import {
  createSavedView,
  deleteSavedView,
  listSavedViews,
  savedViewOut,
  updateSavedView,
} from './saved-views.service.js';
import { orderTimeline } from './timeline.service.js';

const Params = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

export function backofficeRoutes(app: TypedApp): void {
  const views = { tags: ['saved-views'] };
  app.get(
    '/api/admin/saved-views',
    {
      config: anyEmployee,
      schema: {
        ...views,
        summary: "The signed-in employee's saved views of a list, oldest first",
        querystring: SavedViewListQuery,
        response: { 200: Type.Object({ views: Type.Array(SavedView) }) },
      },
    },
    async (request) => ({ views: (await listSavedViews(request.ctx, request.query.resource)).map(savedViewOut) }),
  );
  app.post(
    '/api/admin/saved-views',
    {
      config: anyEmployee,
      schema: {
        ...views,
        summary:
          'Save a view of a list for the signed-in employee (409 name_taken, 409 saved_view_limit at 50 per list)',
        body: SavedViewCreate,
        response: { 201: SavedView },
      },
    },
    async (request, reply) => reply.code(201).send(savedViewOut(await createSavedView(request.ctx, request.body))),
  );
  app.patch(
    '/api/admin/saved-views/:id',
    {
      config: anyEmployee,
      schema: {
        ...views,
        summary: "Rename a saved view or change its query (another employee's view: 404)",
        params: Params,
        body: SavedViewUpdate,
        response: { 200: SavedView },
      },
    },
    async (request) => savedViewOut(await updateSavedView(request.ctx, request.params.id, request.body)),
  );
  app.delete(
    '/api/admin/saved-views/:id',
    {
      config: anyEmployee,
      schema: {
        ...views,
        summary: "Delete a saved view (another employee's view: 404)",
        params: Params,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await deleteSavedView(request.ctx, request.params.id);
      return reply.code(204).send();
    },
  );

  app.get(
    '/api/admin/overview',
    {
      config: anyEmployee,
      schema: {
        tags: ['overview'],
        summary:
          'Heute: what needs doing (counts, each with the list it opens) and the revenue of today and this month per currency',
        response: { 200: Overview },
      },
    },
    async (request) => overview(request.ctx),
  );

  app.get(
    '/api/admin/orders/:id/timeline',
    {
      config: anyEmployee,
      schema: {
        tags: ['orders'],
        summary:
          'What happened to an order, oldest first: states, refunds, invoices, accounting, webhooks, provider events',
        params: Params,
        response: { 200: Timeline },
      },
    },
    async (request) => ({ events: await orderTimeline(request.ctx, request.params.id) }),
  );

  app.post(
    '/api/admin/orders/:id/refunds/preview',
    {
      config: manageMoney,
      schema: {
        tags: ['orders'],
        summary:
          'What a refund would do (amount, provider, credit note with its lines and tax, partner clawback); writes nothing',
        params: Params,
        body: RefundPreviewBody,
        response: { 200: RefundPreview },
      },
    },
    async (request) => previewRefund(request.ctx, request.params.id, request.body),
  );
}
