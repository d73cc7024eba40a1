/** Admin routes of the add-on: settings (status) and plans (docs/digital.md). */
import { Type } from '@sinclair/typebox';
import { anyEmployee, configureShop, manageDigital, readDigital } from '../../platform/auth/presets.js';
import type { TypedApp } from '../../platform/http/typed-app.js';
import * as S from './plans.schemas.js';
import * as plans from './plans.service.js';
import { getStatus, putStatus, statusOut } from './settings.service.js';

const tags = ['digital'];
const Params = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

export function planRoutes(app: TypedApp): void {
  // the settings are readable and (when erlaubt) writable while the add-on is inactive: that is how it is activated
  app.get(
    '/api/admin/digital/status',
    {
      config: anyEmployee,
      schema: { tags, summary: 'Add-on settings: erlaubt, aktiv, abo_provision', response: { 200: S.StatusOut } },
    },
    async (request) => statusOut(await getStatus(request.ctx)),
  );

  app.put(
    '/api/admin/digital/status',
    {
      config: configureShop,
      schema: {
        tags,
        summary: 'Activate the add-on and set the subscription commission mode (only when erlaubt)',
        body: S.StatusPut,
        response: { 200: S.StatusOut },
      },
    },
    async (request) => statusOut(await putStatus(request.ctx, request.body)),
  );

  app.get(
    '/api/admin/digital/plaene',
    {
      config: readDigital,
      schema: {
        tags,
        summary: 'Plans with product names and running-subscription counts',
        response: { 200: S.PlanListOut },
      },
    },
    async (request) => ({ plaene: await plans.listPlans(request.ctx) }),
  );

  app.post(
    '/api/admin/digital/plaene',
    {
      config: manageDigital,
      schema: {
        tags,
        summary: 'Create a plan for a digital product',
        body: S.PlanCreate,
        response: { 201: S.PlanOut },
      },
    },
    async (request, reply) => reply.code(201).send(plans.planOut(await plans.createPlan(request.ctx, request.body))),
  );

  app.get(
    '/api/admin/digital/plaene/:id',
    {
      config: readDigital,
      schema: { tags, summary: 'Read a plan', params: Params, response: { 200: S.PlanOut } },
    },
    async (request) => plans.planOut(await plans.getPlan(request.ctx, request.params.id)),
  );

  app.patch(
    '/api/admin/digital/plaene/:id',
    {
      config: manageDigital,
      schema: {
        tags,
        summary: 'Change a plan (product immutable; price or interval changes apply to new subscriptions: hinweis)',
        params: Params,
        body: S.PlanPatch,
        response: { 200: S.PlanPatchOut },
      },
    },
    async (request) => {
      const { plan, hinweis } = await plans.updatePlan(request.ctx, request.params.id, request.body);
      return { ...plans.planOut(plan), ...(hinweis ? { hinweis } : {}) };
    },
  );
}
