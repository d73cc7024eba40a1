/**
 * The `test` provider's hosted payment page (docs/payments.md): a plain HTML form that works in a
 * browser. Submitting it pays with a test card and redirects (303) to the session's return_url.
 */

import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import { publicRoute } from '../../platform/auth/presets.js';
import { AppError } from '../../platform/errors.js';
import type { TypedApp } from '../../platform/http/typed-app.js';
import type { AppDeps } from '../../platform/module.js';
import { type FormValues, PayForm } from './checkout.schemas.js';
import type { CheckoutSessionRow } from './checkout.tables.js';
import { getSession } from './get-session.js';
import { payOnHostedPage } from './pay-on-hosted-page.js';

export type { FormValues } from './checkout.schemas.js';

export const esc = (s: unknown) =>
  String(s ?? '').replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

export const money = (cents: number, currency: string) =>
  new Intl.NumberFormat('de-DE', { style: 'currency', currency }).format(cents / 100);

export function renderPayPage(s: CheckoutSessionRow, values: FormValues, error?: string): string {
  const billing = s.billingAddress;
  const v = (k: keyof FormValues, fallback?: string | null) => esc(values[k] ?? fallback ?? '');
  const needsWaiver = s.hasDigital && !s.widerrufVerzicht;
  const rows = s.lines
    .map(
      (l) =>
        `<tr><td>${esc(l.quantity)} × ${esc(l.name)}</td><td class="r">${esc(money(l.line_total_cents, s.currency))}</td></tr>`,
    )
    .join('');
  return `<!doctype html>
<html lang="de"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Bezahlen</title>
<style>body{font:16px system-ui,sans-serif;max-width:34rem;margin:2rem auto;padding:0 1rem;color:#222}
label{display:block;margin:.6rem 0 .2rem}input[type=text],input[type=email]{width:100%;padding:.5rem;box-sizing:border-box}
table{width:100%;border-collapse:collapse}td{padding:.3rem 0}.r{text-align:right}.err{background:#fde2e2;color:#8a1010;padding:.7rem;border-radius:4px}
button{margin-top:1rem;padding:.7rem 1.4rem;font-size:1rem}.test{color:#666;font-size:.85rem}</style></head>
<body>
<h1>Bezahlen</h1>
<p class="test">Testbetrieb: Bezahlen Sie mit 4242 4242 4242 4242 (erfolgreich) oder 4000 0000 0000 0002 (abgelehnt).</p>
<table>${rows}
${s.shippingCents ? `<tr><td>Versand</td><td class="r">${esc(money(s.shippingCents, s.currency))}</td></tr>` : ''}
<tr><th class="r" colspan="2" id="total">Gesamt: ${esc(money(s.totalCents, s.currency))}</th></tr></table>
${error ? `<p class="err" role="alert" id="error">${esc(error)}</p>` : ''}
<form method="post" action="/pay/${esc(s.id)}">
<label for="email">E-Mail</label><input type="email" id="email" value="${esc(s.customerEmail)}" disabled>
<label for="name">Name</label><input type="text" id="name" name="name" required value="${v('name', billing?.name)}">
<label for="line1">Straße und Hausnummer</label><input type="text" id="line1" name="line1" required value="${v('line1', billing?.line1)}">
<label for="postal_code">PLZ</label><input type="text" id="postal_code" name="postal_code" required value="${v('postal_code', billing?.postal_code)}">
<label for="city">Ort</label><input type="text" id="city" name="city" required value="${v('city', billing?.city)}">
<label for="country">Land (ISO-Code)</label><input type="text" id="country" name="country" required maxlength="2" value="${v('country', billing?.country)}">
<label for="card_number">Kartennummer</label><input type="text" id="card_number" name="card_number" required autocomplete="cc-number" value="">
${
  needsWaiver
    ? `<label><input type="checkbox" id="widerruf_verzicht" name="widerruf_verzicht" value="on"> Ich stimme zu, dass die Ausführung vor Ablauf der Widerrufsfrist beginnt, und verliere damit mein Widerrufsrecht für digitale Inhalte.</label>`
    : ''
}
<button type="submit" id="pay">Jetzt bezahlen</button>
</form></body></html>`;
}

export function page(reply: FastifyReply, status: number, html: string) {
  return reply
    .code(status)
    .header('cache-control', 'no-store')
    .header(
      'content-security-policy',
      "default-src 'none'; style-src 'unsafe-inline'; form-action 'self' http: https:; frame-ancestors 'none'",
    )
    .type('text/html; charset=utf-8')
    .send(html);
}

export function returnTo(url: string, sessionId: string): string {
  const u = new URL(url);
  u.searchParams.set('session_id', sessionId);
  return u.toString();
}

/**
 * Hosted pages of other session kinds: subscription sessions (kind `abo`, modules/digital)
 * register their own page here, so one `/pay/:id` serves every kind of the test provider.
 */
export interface HostedPage {
  get(s: CheckoutSessionRow, reply: FastifyReply): Promise<FastifyReply>;
  post(s: CheckoutSessionRow, form: FormValues, reply: FastifyReply): Promise<FastifyReply>;
}
const otherKinds = new Map<string, HostedPage>();
export function registerHostedPage(kind: string, handler: HostedPage): void {
  otherKinds.set(kind, handler);
}

const Params = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
const Html = Type.String({ description: 'HTML page' });
/** Paid, or paid before: the browser goes on to the session's return_url with `?session_id=…`. */
const ToReturnUrl = Type.Unsafe<undefined>(
  Type.Null({ description: 'Redirect (Location) to return_url?session_id=…' }),
);

const EXPIRED_PAGE = '<!doctype html><title>Abgelaufen</title><p id="error">Diese Bezahlsitzung ist abgelaufen.</p>';

/** What a hosted-page request finds: a session of another kind, or an order session of the test provider and its state. */
type Found =
  | { state: 'other kind'; session: CheckoutSessionRow; hosted: HostedPage }
  | { state: 'open' | 'paid' | 'expired'; session: CheckoutSessionRow };

/** The session `id` as the hosted page sees it at `now`; 404 when it is no session of the test provider. */
async function findHostedSession(ctx: Parameters<typeof getSession>[0], id: string, now: Date): Promise<Found> {
  const s = await getSession(ctx, id);
  const hosted = s && s.provider === 'test' ? otherKinds.get(s.kind) : undefined;
  if (s && hosted) return { state: 'other kind', session: s, hosted };
  if (s?.provider !== 'test' || s.kind !== 'order') throw new AppError('not_found', 'Checkout session not found');
  if (s.status === 'complete') return { state: 'paid', session: s };
  return { state: s.status !== 'open' || s.expiresAt <= now ? 'expired' : 'open', session: s };
}

/** The answer for an order session that cannot be paid (any more): paid before → its return URL; expired → 410. */
function closedPage(reply: FastifyReply, found: Found) {
  const s = found.session;
  if (found.state === 'paid') return reply.redirect(returnTo(s.returnUrl, s.id), 303);
  return page(reply, 410, EXPIRED_PAGE);
}

export function payPageRoutes(app: TypedApp, deps: AppDeps): void {
  const tags = ['checkout'];

  app.get(
    '/pay/:id',
    {
      config: publicRoute,
      schema: {
        tags,
        summary: 'Hosted payment page of the test provider',
        params: Params,
        produces: ['text/html'],
        response: { 200: Html, 303: ToReturnUrl, 410: Html },
      },
    },
    async (request, reply) => {
      const found = await findHostedSession(request.ctx, request.params.id, deps.clock.now());
      if (found.state === 'other kind') return found.hosted.get(found.session, reply);
      if (found.state !== 'open') return closedPage(reply, found);
      return page(reply, 200, renderPayPage(found.session, {}));
    },
  );

  app.post(
    '/pay/:id',
    {
      config: publicRoute,
      schema: {
        tags,
        summary: 'Pay on the hosted page (form post); 303 to return_url?session_id=… on success',
        params: Params,
        consumes: ['application/x-www-form-urlencoded'],
        body: PayForm,
        produces: ['text/html'],
        response: { 200: Html, 303: ToReturnUrl, 402: Html, 410: Html },
      },
    },
    async (request, reply) => {
      const form = request.body;
      const now = deps.clock.now();
      const found = await findHostedSession(request.ctx, request.params.id, now);
      if (found.state === 'other kind') return found.hosted.post(found.session, form, reply);
      if (found.state !== 'open') return closedPage(reply, found);
      const s = found.session;
      const paid = await payOnHostedPage(request.ctx, s, form, now);
      if (!paid.paid) return page(reply, paid.status, renderPayPage(s, form, paid.message));
      return reply.redirect(returnTo(s.returnUrl, s.id), 303);
    },
  );
}
