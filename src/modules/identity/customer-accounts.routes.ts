/** Routes of customer accounts on a storefront: register, verify, sign in and out, passwords. */
import { Type } from '@sinclair/typebox';
import { actorOf, customerSession, storefrontKey } from '../../platform/auth/presets.js';
import { iso } from '../../platform/dates.js';
import { NoContent } from '../../platform/http/schemas.js';
import type { TypedApp } from '../../platform/http/typed-app.js';
import type { AppDeps } from '../../platform/module.js';
import * as accounts from './customer-accounts.js';
import * as S from './identity.schemas.js';
import * as svc from './identity.service.js';
import { clearSessionCookie, setSessionCookie } from './session-cookie.js';
import { revokeSession } from './sessions.js';

export function customerAccountRoutes(app: TypedApp, deps: AppDeps): void {
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
