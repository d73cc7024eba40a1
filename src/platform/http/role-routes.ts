/**
 * Every process documents the whole API whatever its ROLE (one `/openapi.json` behind a load
 * balancer): the modules another ROLE serves are registered too, but their routes carry a router
 * constraint that no request satisfies, so here they answer 404 exactly like unknown routes.
 */
import type { FastifyServerOptions, RouteOptions } from 'fastify';
import type { TypedApp } from './typed-app.js';

type Strategy = NonNullable<NonNullable<FastifyServerOptions['routerOptions']>['constraints']>[string];

const ELSEWHERE = 'elsewhere';

/** The router strategy: every request derives `here`; only routes served elsewhere are constrained. */
export const roleConstraint: Strategy = {
  name: 'role',
  storage() {
    const stores = new Map<string, Parameters<ReturnType<Strategy['storage']>['set']>[1]>();
    return {
      get: (value: string) => stores.get(value) ?? null,
      set: (value: string, store) => {
        stores.set(value, store);
      },
    };
  },
  deriveConstraint: () => 'here',
  mustMatchWhenDerived: false,
};

/** Registers a module's routes for the document only (inside its own scope). */
export async function registerServedElsewhere(
  app: TypedApp,
  routes: (scope: TypedApp) => Promise<void> | void,
): Promise<void> {
  await app.register(async (scope) => {
    scope.addHook('onRoute', (route: RouteOptions) => {
      route.constraints = { ...(route.constraints ?? {}), role: ELSEWHERE };
    });
    await routes(scope);
  });
}
