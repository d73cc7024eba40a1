/**
 * The page an invitation link opens (`/vendor/accept?token=…`, `/affiliate/accept?token=…`): a
 * plain HTML form that sets the password through the same code as `POST /api/…/auth/accept`.
 * Shops with their own portal front end can point their users at that API instead.
 */
import { Type } from '@sinclair/typebox';
import { publicRoute } from '../../platform/auth/presets.js';
import { AppError } from '../../platform/errors.js';
import type { TypedApp } from '../../platform/http/typed-app.js';
import { esc, page } from '../checkout/index.js';
import { acceptInvite } from './partner-auth.js';

const Html = Type.String({ description: 'HTML page' });
const TITLE = { vendor: 'Händlerportal', affiliate: 'Partnerprogramm' } as const;

function form(kind: 'vendor' | 'affiliate', token: string, error?: string) {
  return `<!doctype html><html lang="de"><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${TITLE[kind]}: Einladung annehmen</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem}
label,input,button{display:block;width:100%;margin:.4rem 0}input,button{padding:.5rem;font-size:1rem}
#error{color:#b00020}</style>
<h1>${TITLE[kind]}</h1><p>Legen Sie Ihr Passwort fest (mindestens 8 Zeichen).</p>
${error ? `<p id="error">${esc(error)}</p>` : ''}
<form method="post"><input type="hidden" name="token" value="${esc(token)}">
<label>Passwort <input type="password" name="password" minlength="8" maxlength="200" required autocomplete="new-password"></label>
<button type="submit">Einladung annehmen</button></form></html>`;
}

export function acceptPageRoutes(app: TypedApp): void {
  for (const kind of ['vendor', 'affiliate'] as const) {
    const tags = [kind === 'vendor' ? 'vendor portal' : 'affiliate portal'];
    app.get(
      `/${kind}/accept`,
      {
        config: publicRoute,
        schema: {
          tags,
          summary: `The page of a ${kind} invitation link`,
          querystring: Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) }),
          produces: ['text/html'],
          response: { 200: Html },
        },
      },
      async (request, reply) => page(reply, 200, form(kind, request.query.token)),
    );

    app.post(
      `/${kind}/accept`,
      {
        config: publicRoute,
        schema: {
          tags,
          summary: `Accept a ${kind} invitation (form post)`,
          consumes: ['application/x-www-form-urlencoded'],
          body: Type.Object({
            token: Type.String({ minLength: 1, maxLength: 200 }),
            password: Type.String({ maxLength: 200 }),
          }),
          produces: ['text/html'],
          response: { 200: Html, 400: Html },
        },
      },
      async (request, reply) => {
        const body = request.body;
        if (body.password.length < 8) {
          return page(reply, 400, form(kind, body.token, 'Das Passwort braucht mindestens 8 Zeichen.'));
        }
        try {
          await acceptInvite(request.ctx, kind, body.token, body.password);
        } catch (err) {
          if (err instanceof AppError && err.status < 500) return page(reply, 400, form(kind, body.token, err.detail));
          throw err;
        }
        return page(
          reply,
          200,
          `<!doctype html><html lang="de"><meta charset="utf-8"><title>${TITLE[kind]}</title>
<p id="done">Ihr Zugang ist eingerichtet. Melden Sie sich mit Ihrer E-Mail-Adresse und dem neuen Passwort an.</p></html>`,
        );
      },
    );
  }
}
