/** Portal sign-in for vendors and affiliates: accept an invite, log in, reset the password, log out. */
import { Type } from '@sinclair/typebox';
import { publicRoute } from '../../platform/auth/presets.js';
import { iso } from '../../platform/dates.js';
import { Body, NoContent, Timestamp } from '../../platform/http/schemas.js';
import type { TypedApp } from '../../platform/http/typed-app.js';
import type { AppDeps } from '../../platform/module.js';
import {
  checkSignInOrigin,
  clearSessionCookie,
  limitAccountCalls,
  revokeSession,
  setSessionCookie,
} from '../identity/index.js';
import { acceptInvite, confirmPartnerReset, loginPartner, requestPartnerReset } from './partner-auth.js';
import type { PartnerType } from './partners.tables.js';

const Password = Type.String({ minLength: 8, maxLength: 200 });

const AcceptBody = Body({
  token: Type.String({ minLength: 1, maxLength: 200, description: 'The token of the invitation link' }),
  password: Password,
});

const LoginBody = Body({
  email: Type.String({ format: 'email', maxLength: 254 }),
  password: Type.String({ minLength: 1, maxLength: 200 }),
  shop_id: Type.Optional(
    Type.String({ minLength: 1, maxLength: 64, description: 'Needed when the e-mail has accounts at several shops' }),
  ),
});

const ResetBody = Body({
  email: Type.String({ minLength: 1, maxLength: 254 }),
  shop_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Only the account at this shop' })),
});

const Accepted = Type.Object({ status: Type.Literal('accepted') });

const PartnerRef = Type.Object({
  id: Type.String(),
  shop_id: Type.String(),
  name: Type.String(),
  email: Type.String(),
  status: Type.String(),
});

const SessionResponse = (kind: PartnerType) =>
  Type.Object({ token: Type.String(), expires_at: Timestamp, [kind]: PartnerRef });

const ref = (p: { id: string; shopId: string; name: string; email: string; status: string }) => ({
  id: p.id,
  shop_id: p.shopId,
  name: p.name,
  email: p.email,
  status: p.status,
});

export function partnerAuthRoutes(app: TypedApp, deps: AppDeps): void {
  for (const kind of ['vendor', 'affiliate'] as const) {
    const tags = [kind === 'vendor' ? 'vendor portal' : 'affiliate portal'];

    app.post(
      `/api/${kind}/auth/accept`,
      {
        config: publicRoute,
        schema: {
          tags,
          summary: `Accept a ${kind} invitation: set the password and sign in`,
          body: AcceptBody,
          response: { 200: SessionResponse(kind) },
        },
      },
      async (request, reply) => {
        await checkSignInOrigin(request, deps, { storefronts: true });
        await limitAccountCalls(request.ctx, request.ip);
        const body = request.body;
        const { partner, session } = await acceptInvite(request.ctx, kind, body.token, body.password);
        setSessionCookie(reply, deps, kind, session.token, session.expiresAt);
        return { token: session.token, expires_at: iso(session.expiresAt), [kind]: ref(partner) };
      },
    );

    app.post(
      `/api/${kind}/auth/login`,
      {
        config: publicRoute,
        schema: {
          tags,
          summary: `Sign in to the ${kind} portal`,
          body: LoginBody,
          response: { 200: SessionResponse(kind) },
        },
      },
      async (request, reply) => {
        await checkSignInOrigin(request, deps, { storefronts: true });
        const body = request.body;
        const { partner, session } = await loginPartner(request.ctx, kind, body, request.ip);
        setSessionCookie(reply, deps, kind, session.token, session.expiresAt);
        return { token: session.token, expires_at: iso(session.expiresAt), [kind]: ref(partner) };
      },
    );

    app.post(
      `/api/${kind}/auth/password-reset`,
      {
        config: publicRoute,
        schema: {
          tags,
          summary: `Request a ${kind} password-reset e-mail (202 whether or not the account exists)`,
          body: ResetBody,
          response: { 202: Accepted },
        },
      },
      async (request, reply) => {
        await limitAccountCalls(request.ctx, request.ip);
        await requestPartnerReset(request.ctx, kind, request.body);
        return reply.code(202).send({ status: 'accepted' });
      },
    );

    app.post(
      `/api/${kind}/auth/password-reset/confirm`,
      {
        config: publicRoute,
        schema: {
          tags,
          summary: `Set a new ${kind} password with the e-mailed token (one use, 1 h); every session ends`,
          body: AcceptBody,
          response: { 200: Type.Object({ [kind]: PartnerRef }) },
        },
      },
      async (request) => {
        await limitAccountCalls(request.ctx, request.ip);
        const body = request.body;
        return { [kind]: ref(await confirmPartnerReset(request.ctx, kind, body.token, body.password)) };
      },
    );

    app.post(
      `/api/${kind}/auth/logout`,
      {
        config: { auth: { accepts: [kind] } },
        schema: { tags, summary: `End this ${kind} session`, response: { 204: NoContent } },
      },
      async (request, reply) => {
        const actor = request.ctx.actor;
        if (actor?.kind === kind) await revokeSession(request.ctx, actor.sessionId);
        clearSessionCookie(reply, deps, kind);
        return reply.code(204).send();
      },
    );
  }
}
