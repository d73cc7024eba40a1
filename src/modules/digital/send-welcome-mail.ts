/** The e-mail a completed abo session sends (complete-abo-session.ts): the subscription and its management link. */
import { queueEmail } from '../../adapters/mail/index.js';
import type { Config } from '../../config.js';
import { isoDay } from '../../platform/dates.js';
import type { TxCtx } from '../../platform/db/tx.js';
import { money } from '../checkout/index.js';
import { customerPageLink } from '../identity/index.js';
import { intervalText } from './billing.js';
import type { AboRow, PlanRow } from './digital.tables.js';

/**
 * The management link e-mailed to the customer: the page that shows the subscription and offers
 * `kuendigen` / `fortsetzen` through `/api/checkout/abo/:token/…` — on the storefront the abo was
 * bought on (the origin of the session's return_url, on the key's allowlist): the built-in one's
 * `/shop/konto/abo?token=…` under PUBLIC_URL, a headless one's `/account/abo?token=…`.
 */
export function manageLink(config: Pick<Config, 'publicUrl' | 'storefront'>, returnUrl: string, token: string): string {
  let origin = config.publicUrl;
  try {
    origin = new URL(returnUrl).origin;
  } catch {
    // checked at creation (checkReturnUrl); PUBLIC_URL otherwise
  }
  return `${customerPageLink(config, origin, 'abo')}?token=${encodeURIComponent(token)}`;
}

export async function sendWelcomeMail(
  ctx: TxCtx,
  abo: AboRow,
  plan: PlanRow,
  token: string,
  returnUrl: string,
  c: { publicUrl: string; now: Date },
) {
  const now = c.now;
  const link = manageLink({ publicUrl: c.publicUrl, storefront: ctx.config.storefront }, returnUrl, token);
  const price = `${money(abo.priceCents, abo.currency)} ${intervalText(abo.intervalUnit, abo.intervalCount)}`;
  const lines = [
    'Hallo,',
    '',
    `vielen Dank für Ihr Abo „${plan.name}“ (${price}).`,
    abo.status === 'trialing' && abo.trialEnd
      ? `Ihre Testphase läuft bis ${isoDay(abo.trialEnd)}; vorher wird nichts berechnet.`
      : `Der aktuelle Zeitraum läuft bis ${isoDay(abo.currentPeriodEnd)}.`,
    '',
    'Ihr Abo verwalten (Status ansehen, kündigen, Kündigung zurücknehmen):',
    link,
    '',
    'Bewahren Sie diesen Link vertraulich auf: Er erlaubt die Verwaltung dieses Abos ohne Anmeldung.',
    abo.isTest ? '\n(Testmodus: es wurde kein echtes Geld bewegt.)' : '',
  ];
  await queueEmail(ctx, {
    kind: 'abo.created',
    to: abo.customerEmail,
    subject: `Ihr Abo: ${plan.name}`,
    text: lines.join('\n'),
    // the management link works without sign-in: never stored or logged in clear
    secrets: [token],
    now,
  });
}
