/** Routes of the platform operator (docs/ARCHITECTURE.md): shops and the simulated clock. */
import { Type } from '@sinclair/typebox';
import { platformOperator } from '../../platform/auth/presets.js';
import { iso } from '../../platform/dates.js';
import { AppError } from '../../platform/errors.js';
import { Body, IdParams, PageMeta, Pagination, Timestamp } from '../../platform/http/schemas.js';
import type { Module } from '../../platform/module.js';
import { ChannelSchema, channelOut } from '../channels/index.js';
import { keyOut, PublishableKeySchema, UserSchema, userOut } from '../identity/index.js';
import { listShops, platformShopOut, updateShop } from '../shops/index.js';
import { createShop } from './create-shop.js';
import { CreateShopBody } from './platform-admin.schemas.js';

export { type CreateShopInput, createShop } from './create-shop.js';

const PlatformShop = Type.Object({
  id: Type.String(),
  name: Type.String(),
  digital_allowed: Type.Boolean(),
  digital_active: Type.Boolean(),
  created_at: Timestamp,
  updated_at: Timestamp,
});

const tags = ['platform'];

export const platformModule: Module = {
  name: 'platform',
  group: 'shop',
  routes(app, deps) {
    app.post(
      '/api/platform/shops',
      {
        config: platformOperator,
        schema: {
          tags,
          summary: 'Create a shop with its owner, a publishable key and its default channel',
          body: CreateShopBody,
          response: {
            201: Type.Object({
              shop: PlatformShop,
              owner: UserSchema,
              publishable_key: PublishableKeySchema,
              default_channel: ChannelSchema,
            }),
          },
        },
      },
      async (request, reply) => {
        const { shop, owner, key, channel } = await createShop(request.ctx, request.body);
        return reply.code(201).send({
          shop: platformShopOut(shop),
          owner: userOut(owner),
          publishable_key: keyOut(key),
          default_channel: channelOut(channel),
        });
      },
    );

    app.get(
      '/api/platform/shops',
      {
        config: platformOperator,
        schema: {
          tags,
          summary: 'List shops',
          querystring: Type.Object(Pagination),
          response: { 200: Type.Object({ shops: Type.Array(PlatformShop), ...PageMeta }) },
        },
      },
      async (request) => {
        const { limit = 50, offset = 0 } = request.query;
        const { rows, count } = await listShops(request.ctx, limit, offset);
        return { shops: rows.map(platformShopOut), count, limit, offset };
      },
    );

    app.patch(
      '/api/platform/shops/:id',
      {
        config: platformOperator,
        schema: {
          tags,
          summary: 'Allow or withdraw the digital add-on (erlaubt), rename a shop',
          params: IdParams,
          body: Body({
            digital_allowed: Type.Optional(Type.Boolean()),
            name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
          }),
          response: { 200: PlatformShop },
        },
      },
      async (request) => {
        const { id } = request.params;
        return platformShopOut(await updateShop(request.ctx, id, request.body));
      },
    );

    app.post(
      '/api/platform/clock/advance',
      {
        config: platformOperator,
        schema: {
          tags,
          summary: 'Advance the simulated clock (CLOCK=simulated only) and run the jobs that came due',
          body: Body({
            seconds: Type.Integer({ minimum: 1, maximum: 5 * 365 * 86400 }),
            run_jobs: Type.Optional(Type.Boolean({ default: true })),
          }),
          response: { 200: Type.Object({ now: Timestamp, jobs_run: Type.Integer() }) },
        },
      },
      async (request) => {
        if (deps.config.clock !== 'simulated') {
          throw new AppError('not_found', 'The clock is not simulated (set CLOCK=simulated)');
        }
        const { seconds, run_jobs = true } = request.body;
        const now = await deps.clock.advance(request.ctx.db, seconds);
        const jobsRun = run_jobs ? await deps.worker.drain() : 0;
        return { now: iso(now), jobs_run: jobsRun };
      },
    );
  },
};
