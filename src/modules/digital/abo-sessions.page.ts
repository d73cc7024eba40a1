import { and, eq } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import { testCardOutcome } from '../../adapters/payment/test-provider.js';
import type { Ctx } from '../../platform/auth/types.js';
import { AppError } from '../../platform/errors.js';
import type { AppDeps } from '../../platform/module.js';
import {
  type AboTax,
  aboTax,
  type CheckoutSessionRow,
  esc,
  type FormValues,
  money,
  normalizeVatId,
  page,
  registerHostedPage,
  returnTo,
} from '../checkout/index.js';
import type { Address } from '../orders/index.js';
import { intervalText, introPrice } from './billing.js';
import { completeAboSession } from './complete-abo-session.js';
import { aboPlans, type PlanRow } from './digital.tables.js';

const countryOk = (c: string) => /^[A-Z]{2}$/.test(c);

async function pageData(ctx: Ctx, s: CheckoutSessionRow) {
  const [plan] = await ctx.db
    .select()
    .from(aboPlans)
    .where(and(eq(aboPlans.shopId, s.shopId), eq(aboPlans.id, s.planId as string)));
  return plan ?? null;
}

function renderAboPage(s: CheckoutSessionRow, plan: PlanRow, values: FormValues, error?: string): string {
  const billing = s.billingAddress;
  const v = (k: keyof FormValues, fallback?: string | null) => esc(values[k] ?? fallback ?? '');
  const intro = introPrice(plan.priceCents, plan.introDiscountPercent);
  const every = intervalText(plan.intervalUnit, plan.intervalCount);
  const terms = [
    plan.trialDays > 0 ? `<li>${esc(plan.trialDays)} Tage kostenlos testen, heute wird nichts berechnet</li>` : '',
    intro !== null
      ? `<li>${esc(money(intro, plan.currency))} ${esc(every)} für ${esc(plan.introDiscountMonths)} Monat(e), danach ${esc(money(plan.priceCents, plan.currency))} ${esc(every)}</li>`
      : `<li>${esc(money(plan.priceCents, plan.currency))} ${esc(every)}</li>`,
    '<li>Jederzeit zum Ende des Zeitraums kündbar</li>',
  ].join('');
  return `<!doctype html>
<html lang="de"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Abo abschließen</title>
<style>body{font:16px system-ui,sans-serif;max-width:34rem;margin:2rem auto;padding:0 1rem;color:#222}
label{display:block;margin:.6rem 0 .2rem}input[type=text],input[type=email]{width:100%;padding:.5rem;box-sizing:border-box}
.err{background:#fde2e2;color:#8a1010;padding:.7rem;border-radius:4px}
button{margin-top:1rem;padding:.7rem 1.4rem;font-size:1rem}.test{color:#666;font-size:.85rem}</style></head>
<body>
<h1>Abo abschließen</h1>
<p class="test">Testbetrieb: 4242 4242 4242 4242 (erfolgreich), 4000 0000 0000 0002 (abgelehnt), 4000 0000 0000 0341 (spätere Abbuchungen schlagen fehl).</p>
<h2 id="plan">${esc(s.lines[0]?.name ?? plan.name)}</h2>
<ul>${terms}</ul>
<p id="total"><strong>Heute fällig: ${esc(money(s.totalCents, plan.currency))}</strong></p>
${error ? `<p class="err" role="alert" id="error">${esc(error)}</p>` : ''}
<form method="post" action="/pay/${esc(s.id)}">
<label for="email">E-Mail</label><input type="email" id="email" value="${esc(s.customerEmail)}" disabled>
<label for="name">Name</label><input type="text" id="name" name="name" required value="${v('name', billing?.name)}">
<label for="company">Firma (optional)</label><input type="text" id="company" name="company" value="${v('company', billing?.company ?? s.aboTax?.company)}">
<label for="vat_id">USt-IdNr. (optional, für Unternehmen)</label><input type="text" id="vat_id" name="vat_id" maxlength="40" value="${v('vat_id', billing?.vat_id ?? s.aboTax?.vat_id)}">
<label for="line1">Straße und Hausnummer</label><input type="text" id="line1" name="line1" required value="${v('line1', billing?.line1)}">
<label for="postal_code">PLZ</label><input type="text" id="postal_code" name="postal_code" required value="${v('postal_code', billing?.postal_code)}">
<label for="city">Ort</label><input type="text" id="city" name="city" required value="${v('city', billing?.city)}">
<label for="country">Land (ISO-Code)</label><input type="text" id="country" name="country" required maxlength="2" value="${v('country', billing?.country ?? (s.aboTax?.given ? s.aboTax.country : null))}">
<label for="card_number">Kartennummer</label><input type="text" id="card_number" name="card_number" required autocomplete="cc-number" value="">
<button type="submit" id="pay">${plan.trialDays > 0 ? 'Testphase starten' : 'Jetzt abonnieren'}</button>
</form></body></html>`;
}

const expiredPage = '<!doctype html><title>Abgelaufen</title><p id="error">Diese Bezahlsitzung ist abgelaufen.</p>';

export function registerAboHostedPage(deps: AppDeps): void {
  registerHostedPage('abo', {
    async get(s: CheckoutSessionRow, reply: FastifyReply) {
      if (s.status === 'complete') return reply.redirect(returnTo(s.returnUrl, s.id), 303);
      const plan = await pageData(reply.request.ctx, s);
      if (!plan || s.status !== 'open' || s.expiresAt <= deps.clock.now()) return page(reply, 410, expiredPage);
      return page(reply, 200, renderAboPage(s, plan, {}));
    },
    async post(s: CheckoutSessionRow, form: FormValues, reply: FastifyReply) {
      if (s.status === 'complete') return reply.redirect(returnTo(s.returnUrl, s.id), 303);
      const now = deps.clock.now();
      // the session's shop: the page is public, its id is the credential
      const ctx = { ...reply.request.ctx, shopId: s.shopId };
      const plan = await pageData(ctx, s);
      if (!plan || s.status !== 'open' || s.expiresAt <= now) return page(reply, 410, expiredPage);
      const fail = (status: number, message: string) => page(reply, status, renderAboPage(s, plan, form, message));
      const country = (form.country ?? '').trim().toUpperCase();
      if (
        !form.name?.trim() ||
        !form.line1?.trim() ||
        !form.postal_code?.trim() ||
        !form.city?.trim() ||
        !countryOk(country)
      ) {
        return fail(400, 'Bitte Name und vollständige Rechnungsadresse angeben (Land als ISO-Code, z. B. DE).');
      }
      const company = form.company?.trim() || null;
      const rawVatId = form.vat_id?.trim() || null;
      let tax: AboTax;
      try {
        // the same row and VAT ID check as the one-time checkout (docs/finance.md)
        tax = await aboTax(ctx, s.channelId, { country, vat_id: rawVatId }, s.lines[0]?.tax_class ?? 'standard', {
          country: '/body/country',
          vatId: '/body/vat_id',
        });
      } catch (err) {
        if (err instanceof AppError && err.code === 'vat_id_invalid') {
          return fail(400, `Die USt-IdNr. ${rawVatId ?? ''} hat kein gültiges Format.`);
        }
        if (err instanceof AppError && err.code === 'country_not_served') {
          return fail(400, `In dieses Land (${country}) verkaufen wir leider nicht.`);
        }
        throw err;
      }
      const card = testCardOutcome(form.card_number ?? '');
      if (!card.ok) return fail(402, card.message);
      const billing: Address = {
        name: form.name.trim(),
        ...(company ? { company } : {}),
        ...(rawVatId ? { vat_id: normalizeVatId(rawVatId) } : {}),
        line1: form.line1.trim(),
        postal_code: form.postal_code.trim(),
        city: form.city.trim(),
        country,
      };
      const decision = tax.decision;
      await completeAboSession(ctx, s.id, {
        now,
        billing,
        taxRate: decision.tax_rate,
        taxDecision: decision,
        vatId: tax.vatId ? { status: tax.vatId.status, checkedAt: tax.vatId.checked_at } : null,
        card: { last4: card.last4, failsLater: card.failsLater },
        provider: 'test',
        publicUrl: deps.config.publicUrl,
      });
      return reply.redirect(returnTo(s.returnUrl, s.id), 303);
    },
  });
}
