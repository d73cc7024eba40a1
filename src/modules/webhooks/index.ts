/** Signed events: the outbox other modules emit into, and the checkout webhook routes. */
import type { Module } from '../../platform/module.js';
import { webhookRoutes } from './webhooks.routes.js';
import { DELIVER_JOB, deliveryJob } from './webhooks.service.js';

export { deadDeliveryCount, eventsOfOrderingKeys } from './webhooks.queries.js';
export { type EmitInput, emitEvent } from './webhooks.service.js';

export const webhooksModule: Module = {
  name: 'webhooks',
  group: 'shop',
  routes: webhookRoutes,
  jobs(registry, deps) {
    registry.register(DELIVER_JOB, deliveryJob(deps.config));
  },
};
