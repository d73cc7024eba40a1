/** Routes of the `lexware` accounting integration: the stored key, and the orders' syncs (docs/finance.md). */
import { manageMoney, readMoney } from '../../platform/auth/presets.js';
import { IdParams, pageOf } from '../../platform/http/schemas.js';
import type { TypedApp } from '../../platform/http/typed-app.js';
import * as acc from './accounting.service.js';
import * as S from './finance.schemas.js';

export function accountingRoutes(app: TypedApp): void {
  const accTags = ['accounting'];
  app.post(
    '/api/admin/credentials/lexware/connect',
    {
      config: manageMoney,
      schema: {
        tags: accTags,
        summary: 'Store the Lexware API key (encrypted with MASTER_KEY; never returned)',
        body: S.Connect,
        response: { 200: S.ConnectResponse },
      },
    },
    async (request) => acc.connect(request.ctx, request.body.api_key),
  );

  app.get(
    '/api/admin/credentials/lexware',
    {
      config: readMoney,
      schema: {
        tags: accTags,
        summary: 'Whether a Lexware API key is stored, and since when (the key is never returned)',
        response: { 200: S.ConnectionState },
      },
    },
    async (request) => acc.connectionState(request.ctx),
  );

  app.post(
    '/api/admin/credentials/test/lexware',
    {
      config: manageMoney,
      schema: {
        tags: accTags,
        summary: "Call Lexware with the stored key: ok, or the provider's error",
        response: { 200: S.TestResponse },
      },
    },
    async (request) => acc.testConnection(request.ctx),
  );

  app.get(
    '/api/admin/accounting/syncs',
    {
      config: readMoney,
      schema: {
        tags: accTags,
        summary: "Order syncs to Lexware, most recently changed first (status=failed: with the provider's message)",
        querystring: S.SyncListQuery,
        response: { 200: S.SyncList },
      },
    },
    async (request) => {
      const actor = request.ctx.actor;
      const restricted = actor?.kind === 'admin' && actor.channelRestricted ? actor.channelIds : null;
      return acc.listSyncs(request.ctx, { ...request.query, ...pageOf(request.query) }, restricted);
    },
  );

  /** The order's sync routes: an order id in, its sync state out. */
  const syncRoute = (summary: string, config = manageMoney) => ({
    config,
    schema: { tags: accTags, summary, params: IdParams, response: { 200: S.SyncState } },
  });
  app.get(
    '/api/admin/orders/:id/lexware',
    syncRoute("The order's Lexware sync state (none, pending, synced, failed, cancelled)", readMoney),
    async (request) => acc.getSync(request.ctx, request.params.id),
  );

  app.post(
    '/api/admin/orders/:id/lexware-retry',
    syncRoute('Retry a failed or cancelled sync (→ pending); any other state is 409'),
    async (request) => acc.retrySync(request.ctx, request.params.id),
  );

  app.post(
    '/api/admin/orders/:id/lexware-cancel',
    syncRoute('Stop a pending or failed sync (→ cancelled); any other state is 409'),
    async (request) => acc.cancelSync(request.ctx, request.params.id),
  );
}
