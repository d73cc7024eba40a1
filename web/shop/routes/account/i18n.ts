/**
 * Strings of the account area's later pages (the subscription page of the e-mailed link, the
 * invoices of the orders), loaded with their chunk. German first; English typed by it.
 */
import { defineDictionary } from '../../../shared/i18n/index.js';

const de = {
  // the page of the e-mailed management link (/shop/konto/abo?token=…)
  aboTitle: 'Ihr Abo',
  aboIntro: 'Über den Link aus Ihrer E-Mail verwalten Sie dieses Abo ohne Anmeldung.',
  aboNoToken: 'Der Link ist unvollständig. Öffnen Sie ihn bitte direkt aus der E-Mail.',
  aboNotFound:
    'Zu diesem Link gibt es kein Abo. Prüfen Sie, ob Sie den vollständigen Link aus der E-Mail geöffnet haben.',
  plan: 'Tarif',
  product: 'Produkt',
  price: 'Preis',
  status: 'Status',
  periodEnd: 'Bezahlt bis',
  endsAt: 'Endet am',
  trialUntil: 'Testzeit bis',
  cancelled: 'Gekündigt – bis zum Ende nutzbar',
  ended: 'Dieses Abo ist beendet.',
  kuendigen: 'Abo kündigen',
  kuendigenTitle: 'Abo kündigen?',
  kuendigenText: (date: string) =>
    `Die Kündigung wird zum Ende des bezahlten Zeitraums am ${date} wirksam. Bis dahin bleibt das Abo nutzbar; danach wird nichts mehr berechnet. Sie können die Kündigung bis dahin zurücknehmen.`,
  kuendigenConfirm: (date: string) => `Zum ${date} kündigen`,
  kuendigt: (date: string) => `Gekündigt zum ${date}.`,
  fortsetzen: 'Kündigung zurücknehmen',
  fortsetzenText: 'Das Abo läuft dann weiter wie bisher und verlängert sich zum Periodenende.',
  fortgesetzt: 'Die Kündigung ist zurückgenommen; das Abo läuft weiter.',
  toAccount: 'Zu Mein Konto',
  // invoices of the orders in the account
  invoice: 'Rechnung',
  invoicePdf: (number: string) => `Rechnung ${number} (PDF)`,
  noInvoice: 'noch keine',
  credited: 'storniert',
  partiallyCredited: 'teilweise gutgeschrieben',
};

const en: typeof de = {
  aboTitle: 'Your subscription',
  aboIntro: 'With the link from your e-mail you manage this subscription without signing in.',
  aboNoToken: 'The link is incomplete. Please open it straight from the e-mail.',
  aboNotFound: 'There is no subscription for this link. Check that you opened the complete link from the e-mail.',
  plan: 'Plan',
  product: 'Product',
  price: 'Price',
  status: 'Status',
  periodEnd: 'Paid until',
  endsAt: 'Ends on',
  trialUntil: 'Trial until',
  cancelled: 'Cancelled – usable until it ends',
  ended: 'This subscription has ended.',
  kuendigen: 'Cancel subscription',
  kuendigenTitle: 'Cancel the subscription?',
  kuendigenText: (date: string) =>
    `The cancellation takes effect at the end of the paid period on ${date}. Until then the subscription stays usable; nothing is charged after it. You can withdraw the cancellation until then.`,
  kuendigenConfirm: (date: string) => `Cancel as of ${date}`,
  kuendigt: (date: string) => `Cancelled as of ${date}.`,
  fortsetzen: 'Withdraw cancellation',
  fortsetzenText: 'The subscription then continues as before and renews at the end of the period.',
  fortgesetzt: 'The cancellation is withdrawn; the subscription continues.',
  toAccount: 'Go to My account',
  invoice: 'Invoice',
  invoicePdf: (number: string) => `Invoice ${number} (PDF)`,
  noInvoice: 'none yet',
  credited: 'cancelled',
  partiallyCredited: 'partly credited',
};

export const accountText = defineDictionary(de, en);
