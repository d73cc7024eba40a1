/** The session cookie of a sign-in (admin, customer, partner portals): set at sign-in, cleared at sign-out. */
import type { FastifyReply } from 'fastify';
import type { AppDeps } from '../../platform/module.js';
import { SESSION_COOKIE, type SessionKind } from './sessions.js';

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
