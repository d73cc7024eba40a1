/**
 * Builds the Fastify app: platform plugins, then the modules the ROLE serves. Never listens;
 * `server.ts` does that.
 */
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance, type FastifyServerOptions, type RouteOptions } from 'fastify';
import { mailModule } from './adapters/mail/index.js';
import { mediaModule } from './adapters/storage/index.js';
import type { Config } from './config.js';
import { backofficeModule } from './modules/backoffice/index.js';
import { catalogModule, listingsChannelDependency } from './modules/catalog/index.js';
import { channelsModule } from './modules/channels/index.js';
import {
  checkoutChannelDependency,
  checkoutModule,
  checkoutSettingsModule,
  completeOrderFromEvent,
  paymentsAdminModule,
} from './modules/checkout/index.js';
import { customersModule } from './modules/customers/index.js';
import {
  aboPaymentEventHandlers,
  claimGuestAbos,
  digitalCheckoutModule,
  digitalModule,
  subscriptionsChannelDependency,
} from './modules/digital/index.js';
import { creditCancelledOrder, creditRefund, financeModule } from './modules/finance/index.js';
import { healthModule } from './modules/health/index.js';
import {
  configureLoginThrottle,
  configureSessions,
  forgetDeletedChannel,
  identityModule,
  registerAuthorization,
} from './modules/identity/index.js';
import {
  claimGuestOrders,
  ordersChannelDependency,
  ordersModule,
  refundPaymentEventHandler,
} from './modules/orders/index.js';
import { pagesModule } from './modules/pages/index.js';
import {
  creditOrderEarnings,
  partnersModule,
  restoreFailedRefundEarnings,
  reverseCreditNoteEarnings,
  reverseOrderEarnings,
  reverseRefundedEarnings,
  vendorExists,
} from './modules/partners/index.js';
import { platformModule } from './modules/platform-admin/index.js';
import { shippingModule } from './modules/shipping/index.js';
import { storefrontModule } from './modules/storefront/index.js';
import { webhooksModule } from './modules/webhooks/index.js';
import { Clock } from './platform/clock.js';
import { configurePasswordHashing } from './platform/crypto.js';
import { type Database, openDatabase } from './platform/db/client.js';
import { migrate } from './platform/db/migrate.js';
import { AppError } from './platform/errors.js';
import { installHooks } from './platform/hooks.js';
import { registerErrorHandling, sendProblem } from './platform/http/errors-plugin.js';
import { loggerOptions } from './platform/http/log-redaction.js';
import { documentRoute, registerOpenApi } from './platform/http/openapi.js';
import { genRequestId } from './platform/http/request-id.js';
import { registerServedElsewhere, roleConstraint } from './platform/http/role-routes.js';
import { registerTextSafety, validatorCompiler } from './platform/http/validation.js';
import { registerMaintenanceJobs } from './platform/jobs/maintenance.js';
import { JobRegistry, Worker } from './platform/jobs/worker.js';
import { createMetrics, registerMetricsRoute } from './platform/metrics.js';
import type { AppDeps, Module } from './platform/module.js';

export type { AppDeps, Module } from './platform/module.js';

export type App = FastifyInstance & { deps: AppDeps };

export interface BuildOptions {
  config: Config;
  /** An already open database (tests); else opened from the config. */
  database?: Database;
  logger?: FastifyServerOptions['logger'];
  /** Skip migrations (the database is known to be migrated). */
  skipMigrations?: boolean;
  /** Adds routes before the app is sealed (tests use it for failure cases). */
  extend?: (app: FastifyInstance, deps: AppDeps) => void;
  /** Sees every route as it is registered (the authorization matrix lists them to require a row for each). */
  onRoute?: (route: RouteOptions) => void;
}

/**
 * The security headers of every reply: what @fastify/helmet set here before (its defaults, with
 * the Content-Security-Policy off because the API serves JSON while /docs and the hosted payment
 * page set their own, and a cross-origin resource policy so storefronts on other origins can use
 * the answers), as constants: helmet's middleware cost 1.7 % of a checkout's CPU.
 */
const SECURITY_HEADERS = {
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'cross-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'SAMEORIGIN',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
} as const;

const MODULES: Module[] = [
  healthModule,
  platformModule,
  identityModule,
  catalogModule,
  channelsModule,
  webhooksModule,
  shippingModule,
  storefrontModule,
  ordersModule,
  checkoutModule,
  checkoutSettingsModule,
  paymentsAdminModule,
  financeModule,
  mailModule,
  mediaModule,
  digitalModule,
  digitalCheckoutModule,
  partnersModule,
  backofficeModule,
  pagesModule,
  customersModule,
];

/**
 * Who answers which cross-module hook (platform/hooks.ts; the map is in docs/ARCHITECTURE.md).
 * Order matters in lists: the first payment-event handler with an outcome wins, and channel
 * dependencies are named in this order in error messages.
 */
function wireHooks(): void {
  installHooks({
    events: {
      // the listeners book in the event's transaction, for the event's shop
      'order.paid': [(t, e) => creditOrderEarnings({ db: t.db, shopId: e.shopId }, e.orderId, e.now)],
      'order.reversed': [(t, e) => reverseOrderEarnings({ db: t.db, shopId: e.shopId }, e.orderId, e.now)],
      // the final invoice of an order cancelled unpaid is credited in full (finance)
      'order.cancelledUnpaid': [creditCancelledOrder],
      'refund.uncredited': [
        (t, e) => reverseRefundedEarnings({ db: t.db, shopId: e.shopId }, e.orderId, e.refundId, e.now),
      ],
      'refund.failedAfterSuccess': [
        (t, e) => restoreFailedRefundEarnings({ db: t.db, shopId: e.shopId }, e.orderId, e.refundId, e.now),
      ],
      'creditNote.finalized': [
        (t, e) => reverseCreditNoteEarnings({ db: t.db, shopId: e.shopId }, e.orderId, e.creditNoteId, e.now),
      ],
      // guest orders and subscriptions of the verified e-mail become the account's
      'customer.verified': [claimGuestOrders, claimGuestAbos],
      // employees restricted to the channel lose it
      'channel.deleted': [forgetDeletedChannel],
    },
    ports: { creditRefund, vendorExists },
    lists: {
      channelDependencies: [
        listingsChannelDependency,
        ordersChannelDependency,
        checkoutChannelDependency,
        subscriptionsChannelDependency,
      ],
      paymentEventHandlers: [
        refundPaymentEventHandler,
        { kinds: ['session.paid'], handle: completeOrderFromEvent },
        ...aboPaymentEventHandlers,
      ],
    },
  });
}

export async function buildApp(opts: BuildOptions): Promise<App> {
  const { config } = opts;
  wireHooks();
  const database =
    opts.database ??
    (await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir, poolSize: config.databasePoolSize }));
  if (!opts.skipMigrations) await migrate(database.db);
  const clock = new Clock(config.clock);
  await clock.refresh(database.db);
  configurePasswordHashing({ concurrency: config.passwordHashConcurrency, maxWaitMs: config.passwordHashMaxWaitMs });
  configureLoginThrottle(config.loginThrottle);
  configureSessions(config.sessions);

  const app = Fastify({
    logger: opts.logger === false ? false : loggerOptions(opts.logger ?? { level: config.logLevel }),
    genReqId: genRequestId,
    bodyLimit: 1_048_576,
    // A hop count trusts that many proxies nearest to us (this Fastify fails closed on a plain number).
    trustProxy:
      typeof config.trustProxy === 'number'
        ? (
            (hops: number) => (_addr: string, i: number) =>
              i < hops
          )(config.trustProxy)
        : config.trustProxy,
    // Path parameters of any length reach their schema (400 naming the parameter) instead of the
    // router's bare 414; the request line is bounded by Node's header limit anyway.
    routerOptions: {
      ignoreTrailingSlash: true,
      constraints: { role: roleConstraint },
      maxParamLength: 16_384,
    },
    // What the router refuses before any hook (a path with broken percent-encoding) is a problem
    // document too, with the request id and the security headers of every other answer.
    frameworkErrors: (err, request, reply) => {
      reply.headers(SECURITY_HEADERS);
      reply.header('x-request-id', request.id);
      return sendProblem(
        reply,
        new AppError('validation_failed', 'The URL is not valid', [
          { path: '/url', message: err.code === 'FST_ERR_BAD_URL' ? 'holds broken percent-encoding' : 'is too long' },
        ]),
        request.id,
      );
    },
    ajv: { customOptions: { allErrors: true } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  const jobs = new JobRegistry();
  const worker = new Worker({
    db: database.db,
    clock,
    log: app.log.child({ component: 'worker' }),
    registry: jobs,
    pollMs: config.workerPollMs,
  });
  const metrics = createMetrics(app, database, clock);
  const deps: AppDeps = { config, database, clock, jobs, worker, metrics };
  app.decorate('deps', deps);

  app.setValidatorCompiler(validatorCompiler);
  // Bodies are JSON (and form posts of the hosted payment page); plain text is refused with 415.
  app.removeContentTypeParser('text/plain');
  // An empty body declared as JSON is no body (clients that send the header on every call, e.g.
  // a DELETE or a POST …/fortsetzen), and so is one of JSON whitespace only (a lone newline some
  // clients append); a route that needs a body still answers 400 for it.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (/^[ \t\n\r]*$/.test(body as string)) return done(null, undefined);
    parseJson(request, body as string, done);
  });
  registerErrorHandling(app);
  // Bodies are read as sent: a compressed one (Content-Encoding gzip, br …) is 415 (RFC 9110
  // §15.5.16) instead of its bytes being parsed as JSON (400 malformed_json, or taken as is).
  app.addHook('preParsing', (request, _reply, payload, done) => {
    const coding = String(request.headers['content-encoding'] ?? '')
      .split(',')
      .map((c) => c.trim().toLowerCase())
      .filter((c) => c !== '' && c !== 'identity');
    const hasBody = request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length']) > 0;
    if (coding.length > 0 && hasBody) {
      return done(
        new AppError(
          'unsupported_media_type',
          `Content-Encoding ${coding.join(', ')} is not supported; send the body uncompressed`,
        ),
      );
    }
    done(null, payload);
  });
  app.addHook('onRoute', documentRoute);
  if (opts.onRoute) app.addHook('onRoute', opts.onRoute);
  // Every reply, errors and 404 included, carries its request id and the security headers; set
  // on the reply at once (a synchronous hook: no promise, no middleware per request).
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(SECURITY_HEADERS);
    reply.header('x-request-id', request.id);
    done();
  });
  // A form body is read only by the routes that declare it (`consumes`: the hosted payment page,
  // the invitation page); every other route takes JSON, so a cross-site HTML form (which cannot
  // send application/json without a CORS preflight) reaches none of them: no login CSRF.
  app.addHook('onRequest', (request, _reply, done) => {
    const type = String(request.headers['content-type'] ?? '')
      .split(';')[0]
      ?.trim()
      .toLowerCase();
    if (type === 'application/x-www-form-urlencoded' && request.routeOptions.url !== undefined) {
      const consumes = (request.routeOptions.schema as { consumes?: string[] } | undefined)?.consumes ?? [];
      if (!consumes.includes(type)) {
        return done(new AppError('unsupported_media_type', 'Send the request body as application/json'));
      }
    }
    done();
  });
  if (config.clock === 'simulated') {
    // Simulated time lives in the database so that every process agrees on it.
    app.addHook('onRequest', async () => clock.refresh(database.db));
  }

  await app.register(cookie);
  await app.register(formbody, { bodyLimit: 65_536 });
  await registerOpenApi(app, config.publicUrl);
  registerTextSafety(app);
  registerAuthorization(app, deps);
  if (config.metricsToken && !config.metricsPort) registerMetricsRoute(app, metrics, config.metricsToken);

  registerMaintenanceJobs(jobs, config);
  const serves = (m: Module) =>
    m.group === 'always' ||
    config.role === 'all' ||
    (config.role === 'shop' && m.group === 'shop') ||
    (config.role === 'checkout' && m.group === 'checkout');
  for (const m of MODULES) {
    m.jobs?.(jobs, deps);
    if (serves(m)) await m.routes(app, deps);
    // in the document of every process, answered 404 here (platform/http/role-routes.ts)
    else await registerServedElsewhere(app, (scope) => m.routes(scope, deps));
  }

  opts.extend?.(app, deps);
  app.addHook('onClose', async () => {
    await worker.stop();
    if (!opts.database) await database.close();
  });
  await app.ready();
  return app as unknown as App;
}
