/** Routes of admin login, employees, API tokens, publishable keys and customer accounts. */
import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import { normalizeOrigin } from '../../config.js';
import {
  actorOf,
  anyEmployee,
  configureShop,
  customerSession,
  ownerOnly,
  publicRoute,
  storefrontKey,
} from '../../platform/auth/presets.js';
import { iso } from '../../platform/dates.js';
import { IdParams, NoContent } from '../../platform/http/schemas.js';
import { deleteByIdRoute, type TypedApp } from '../../platform/http/typed-app.js';
import type { AppDeps } from '../../platform/module.js';
import { adminOriginAllowed, checkSignInOrigin } from './authorize.js';
import * as accounts from './customer-accounts.js';
import * as S from './identity.schemas.js';
import * as svc from './identity.service.js';
import { revokeSession, SESSION_COOKIE, type SessionKind } from './sessions.js';

export function setSessionCookie(reply: FastifyReply, deps: AppDeps, kind: SessionKind, token: string, expires: Date) {
  reply.setCookie(SESSION_COOKIE[kind], token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: deps.config.publicUrl.startsWith('https:'),
    path: '/',
    expires,
  });
}

export function clearSessionCookie(reply: FastifyReply, deps: AppDeps, kind: SessionKind) {
  reply.clearCookie(SESSION_COOKIE[kind], {
    httpOnly: true,
    sameSite: 'lax',
    secure: deps.config.publicUrl.startsWith('https:'),
    path: '/',
  });
}

export function identityRoutes(app: TypedApp, deps: AppDeps): void {
  const tags = ['identity'];

  // ---- admin sessions ----
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

  // ---- employees (owner only) ----
  app.get(
    '/api/admin/employees',
    {
      config: ownerOnly,
      schema: {
        tags,
        summary: 'List employees',
        response: { 200: Type.Object({ employees: Type.Array(S.UserSchema) }) },
      },
    },
    async (request) => ({ employees: (await svc.listEmployees(request.ctx)).map(svc.userOut) }),
  );

  app.post(
    '/api/admin/employees',
    {
      config: ownerOnly,
      schema: { tags, summary: 'Add an employee', body: S.EmployeeCreate, response: { 201: S.UserSchema } },
    },
    async (request, reply) => {
      const row = await svc.createEmployee(request.ctx, request.body);
      return reply.code(201).send(svc.userOut(row));
    },
  );

  app.patch(
    '/api/admin/employees/:id',
    {
      config: ownerOnly,
      schema: {
        tags,
        summary: 'Change an employee (role, channels, password)',
        params: IdParams,
        body: S.EmployeePatch,
        response: { 200: S.UserSchema },
      },
    },
    async (request) => {
      const { id } = request.params;
      return svc.userOut(await svc.updateEmployee(request.ctx, id, request.body));
    },
  );

  deleteByIdRoute(
    app,
    '/api/admin/employees/:id',
    { config: ownerOnly, tags, summary: 'Remove an employee (not oneself: 409 own_account)' },
    svc.deleteEmployee,
  );

  app.post(
    '/api/admin/employees/:id/suspend',
    {
      config: ownerOnly,
      schema: {
        tags,
        summary: "Suspend an employee's sign-in: sessions end, logins get 403 employee_suspended (not oneself)",
        params: IdParams,
        response: { 200: S.UserSchema },
      },
    },
    async (request) => svc.userOut(await svc.suspendEmployee(request.ctx, request.params.id)),
  );

  app.post(
    '/api/admin/employees/:id/restore',
    {
      config: ownerOnly,
      schema: {
        tags,
        summary: 'Let a suspended employee sign in again',
        params: IdParams,
        response: { 200: S.UserSchema },
      },
    },
    async (request) => svc.userOut(await svc.restoreEmployee(request.ctx, request.params.id)),
  );

  // ---- API tokens (owner or admin) ----
  app.get(
    '/api/admin/api-tokens',
    {
      config: configureShop,
      schema: {
        tags,
        summary: 'List API tokens (secrets are never shown again)',
        response: { 200: Type.Object({ api_tokens: Type.Array(S.ApiTokenSchema) }) },
      },
    },
    async (request) => ({ api_tokens: (await svc.listApiTokens(request.ctx)).map(svc.tokenOut) }),
  );

  app.post(
    '/api/admin/api-tokens',
    {
      config: configureShop,
      schema: { tags, summary: 'Create an API token', body: S.ApiTokenCreate, response: { 201: S.ApiTokenCreated } },
    },
    async (request, reply) => {
      const { row, token } = await svc.createApiToken(request.ctx, request.body);
      return reply.code(201).send({ ...svc.tokenOut(row), token });
    },
  );

  deleteByIdRoute(
    app,
    '/api/admin/api-tokens/:id',
    { config: configureShop, tags, summary: 'Revoke an API token' },
    svc.revokeApiToken,
  );

  // ---- publishable keys (owner or admin) ----
  app.get(
    '/api/admin/publishable-keys',
    {
      config: configureShop,
      schema: {
        tags,
        summary: 'List publishable keys',
        response: { 200: Type.Object({ publishable_keys: Type.Array(S.PublishableKeySchema) }) },
      },
    },
    async (request) => ({ publishable_keys: (await svc.listPublishableKeys(request.ctx)).map(svc.keyOut) }),
  );

  app.post(
    '/api/admin/publishable-keys',
    {
      config: configureShop,
      schema: {
        tags,
        summary: 'Create a publishable key for a storefront',
        body: S.PublishableKeyCreate,
        response: { 201: S.PublishableKeySchema },
      },
    },
    async (request, reply) => {
      const row = await svc.createPublishableKey(request.ctx, request.body);
      return reply.code(201).send(svc.keyOut(row));
    },
  );

  app.patch(
    '/api/admin/publishable-keys/:id',
    {
      config: configureShop,
      schema: {
        tags,
        summary: 'Rename a key or change its allowed origins',
        params: IdParams,
        body: S.PublishableKeyPatch,
        response: { 200: S.PublishableKeySchema },
      },
    },
    async (request) => svc.keyOut(await svc.updatePublishableKey(request.ctx, request.params.id, request.body)),
  );

  deleteByIdRoute(
    app,
    '/api/admin/publishable-keys/:id',
    { config: configureShop, tags, summary: 'Revoke a publishable key' },
    svc.revokePublishableKey,
  );

  // ---- customer accounts ----
  const ctags = ['customer'];
  app.post(
    '/api/customer/register',
    {
      config: storefrontKey,
      schema: {
        tags: ctags,
        summary:
          'Register a customer account in the shop of the publishable key: 202 whether or not the address has an account',
        description:
          'A new address gets an unverified account and a verification e-mail, whose link (POST /api/customer/verify-email) verifies the address and signs in; until then the account cannot sign in. An address that has an account gets an e-mail telling its owner that someone tried, and nothing changes. Both answer alike (docs/decisions.md). Guest purchases of the e-mail show only after verification.',
        body: S.CustomerRegister,
        response: { 202: S.Accepted },
      },
    },
    async (request, reply) => {
      await accounts.limitAccountCalls(request.ctx, request.ip);
      await svc.registerCustomer(request.ctx, request.body);
      return reply.code(202).send({ status: 'accepted' });
    },
  );

  app.post(
    '/api/customer/login',
    {
      config: storefrontKey,
      schema: {
        tags: ctags,
        summary: 'Sign in as a customer (an account signs in once its e-mail is verified)',
        body: S.CustomerLogin,
        response: { 200: S.CustomerSessionResponse },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const { customer, session } = await svc.loginCustomer(request.ctx, body.email, body.password, request.ip);
      setSessionCookie(reply, deps, 'customer', session.token, session.expiresAt);
      return { token: session.token, expires_at: iso(session.expiresAt), customer: svc.customerOut(customer) };
    },
  );

  app.post(
    '/api/customer/logout',
    {
      config: customerSession,
      schema: { tags: ctags, summary: 'End the customer session', response: { 204: NoContent } },
    },
    async (request, reply) => {
      const actor = request.ctx.actor;
      if (actor?.kind === 'customer') await revokeSession(request.ctx, actor.sessionId);
      clearSessionCookie(reply, deps, 'customer');
      return reply.code(204).send();
    },
  );

  app.get(
    '/api/customer/me',
    {
      config: customerSession,
      schema: {
        tags: ctags,
        summary: 'The signed-in customer',
        response: { 200: Type.Object({ customer: S.CustomerSchema }) },
      },
    },
    async (request) => {
      const actor = actorOf(request.ctx, customerSession);
      return { customer: svc.customerOut(await svc.getCustomer(request.ctx, actor.customerId)) };
    },
  );

  app.post(
    '/api/customer/verify-email',
    {
      config: storefrontKey,
      schema: {
        tags: ctags,
        summary:
          "Verify the e-mail of a customer account with the token of the verification e-mail (one use) and the account's password: every earlier session of the account ends and a new one is returned",
        body: S.VerifyEmailBody,
        response: { 200: S.CustomerSessionResponse },
      },
    },
    async (request, reply) => {
      await accounts.limitAccountCalls(request.ctx, request.ip);
      const body = request.body;
      const { customer, session } = await accounts.verifyCustomerEmail(
        request.ctx,
        request.ip,
        body.token,
        body.password,
      );
      setSessionCookie(reply, deps, 'customer', session.token, session.expiresAt);
      return { token: session.token, expires_at: iso(session.expiresAt), customer: svc.customerOut(customer) };
    },
  );

  app.post(
    '/api/customer/password-reset',
    {
      config: storefrontKey,
      schema: {
        tags: ctags,
        summary: 'Request a password-reset e-mail (answered 202 whether or not the account exists)',
        body: S.ResetRequestBody,
        response: { 202: S.Accepted },
      },
    },
    async (request, reply) => {
      await accounts.limitAccountCalls(request.ctx, request.ip);
      await accounts.requestCustomerReset(request.ctx, request.body.email);
      return reply.code(202).send({ status: 'accepted' });
    },
  );

  app.post(
    '/api/customer/password-reset/confirm',
    {
      config: storefrontKey,
      schema: {
        tags: ctags,
        summary: 'Set a new password with the token of the reset e-mail (one use, 1 h); every session ends',
        body: S.ResetConfirmBody,
        response: { 200: S.CustomerResponse },
      },
    },
    async (request) => {
      await accounts.limitAccountCalls(request.ctx, request.ip);
      const body = request.body;
      return { customer: svc.customerOut(await accounts.confirmCustomerReset(request.ctx, body.token, body.password)) };
    },
  );

  app.post(
    '/api/customer/password',
    {
      config: customerSession,
      schema: {
        tags: ctags,
        summary: 'Change the password; every session ends and a new one is returned',
        body: S.PasswordBody,
        response: { 200: S.CustomerSessionResponse },
      },
    },
    async (request, reply) => {
      const { customer, session } = await accounts.changeCustomerPassword(request.ctx, request.ip, request.body);
      setSessionCookie(reply, deps, 'customer', session.token, session.expiresAt);
      return { token: session.token, expires_at: iso(session.expiresAt), customer: svc.customerOut(customer) };
    },
  );
}
