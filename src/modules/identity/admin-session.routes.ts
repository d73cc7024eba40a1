/** Routes of the admin sign-in: login, logout, the signed-in employee, the origin check, the own password. */
import { normalizeOrigin } from '../../config.js';
import { actorOf, anyEmployee, publicRoute } from '../../platform/auth/presets.js';
import { iso } from '../../platform/dates.js';
import { NoContent } from '../../platform/http/schemas.js';
import type { TypedApp } from '../../platform/http/typed-app.js';
import type { AppDeps } from '../../platform/module.js';
import { adminOriginAllowed, checkSignInOrigin } from './authorize.js';
import * as S from './identity.schemas.js';
import * as svc from './identity.service.js';
import { clearSessionCookie, setSessionCookie } from './session-cookie.js';
import { revokeSession } from './sessions.js';

export function adminSessionRoutes(app: TypedApp, deps: AppDeps): void {
  const tags = ['identity'];

  app.post(
    '/api/auth/login',
    {
      config: publicRoute,
      schema: { tags, summary: 'Sign in as an employee', body: S.LoginBody, response: { 200: S.LoginResponse } },
    },
    async (request, reply) => {
      await checkSignInOrigin(request, deps, { storefronts: false });
      const body = request.body;
      const { session, user, shop } = await svc.loginAdmin(request.ctx, body.email, body.password, request.ip);
      setSessionCookie(reply, deps, 'admin', session.token, session.expiresAt);
      return {
        token: session.token,
        expires_at: iso(session.expiresAt),
        user: svc.userOut(user),
        shop: svc.shopOut(shop),
      };
    },
  );

  app.post(
    '/api/auth/logout',
    {
      config: anyEmployee,
      schema: { tags, summary: 'End this session', response: { 204: NoContent } },
    },
    async (request, reply) => {
      const actor = request.ctx.actor;
      if (actor?.kind === 'admin') await revokeSession(request.ctx, actor.sessionId);
      clearSessionCookie(reply, deps, 'admin');
      return reply.code(204).send();
    },
  );

  app.get(
    '/api/auth/me',
    {
      config: anyEmployee,
      schema: { tags, summary: 'The signed-in employee and their shop', response: { 200: S.MeResponse } },
    },
    async (request) => {
      const actor = actorOf(request.ctx, anyEmployee);
      const { user, shop } = await svc.getUserAndShop(request.ctx, actor.userId);
      return { user: svc.userOut(user), shop: svc.shopOut(shop) };
    },
  );

  app.get(
    '/api/auth/origin-check',
    {
      config: publicRoute,
      schema: {
        tags,
        summary: 'Whether admin-session changes from an origin pass the CSRF rule',
        description:
          'A change sent with the admin session cookie must come from the origin of PUBLIC_URL or one of ADMIN_ORIGINS ' +
          '(else 403 origin_denied). The admin page asks this before sign-in so it can say so instead of failing on every save.',
        querystring: S.OriginCheckQuery,
        response: { 200: S.OriginCheckResponse },
      },
    },
    async (request) => {
      const origin = normalizeOrigin(request.query.origin);
      return { allowed: origin !== null && adminOriginAllowed(deps.config, origin) };
    },
  );

  app.post(
    '/api/auth/password',
    {
      config: anyEmployee,
      schema: {
        tags,
        summary: 'Change your password; every other session of yours ends',
        body: S.PasswordBody,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      const body = request.body;
      await svc.changeOwnPassword(request.ctx, request.ip, body.current_password, body.new_password);
      return reply.code(204).send();
    },
  );
}
