/**
 * The line under each entry of an order's timeline, worded here per kind from the event's `facts`
 * (the API's `detail` is English, for API clients); null when the entry's heading says it all.
 * An area dictionary: loaded with the order screen, not with every app's main bundle.
 */
import type { TimelineFacts } from '../../../../shared/api.js';
import { defineDictionary } from '../../../../shared/i18n/index.js';

const resultDe: Record<string, string> = {
  processed: 'Verarbeitet',
  ignored: 'Ignoriert',
  rejected: 'Abgelehnt',
  refunded: 'Erstattet',
};
const resultEn: Record<string, string> = {
  processed: 'Processed',
  ignored: 'Ignored',
  rejected: 'Rejected',
  refunded: 'Refunded',
};

const de = {
  created: () => null,
  paid: (f: TimelineFacts) => (f.provider ? `über ${f.provider}` : null),
  fulfilled: () => null,
  cancelled: () => null,
  refund_pending: (f: TimelineFacts) =>
    [
      f.units != null ? `${f.units} Stück aus ${f.lines ?? 0} Position(en)` : 'nach Betrag',
      f.provider ? `über ${f.provider}` : null,
      f.reason ? `Grund: ${f.reason}` : null,
    ]
      .filter(Boolean)
      .join(' · '),
  refunded: (f: TimelineFacts) => (f.provider ? `über ${f.provider}` : null),
  refund_failed: (f: TimelineFacts) => (f.error ? `Meldung: ${f.error}` : 'ohne Angabe eines Grundes'),
  invoice_draft: () => null,
  invoiced: (f: TimelineFacts) => (f.number ? `Rechnung ${f.number}` : null),
  invoice_credited: () => null,
  credit_note: (f: TimelineFacts) => (f.number ? `Gutschrift ${f.number}` : 'Entwurf'),
  email_sent: (f: TimelineFacts) => `Rechnung ${f.number ?? ''}${f.to ? ` an ${f.to}` : ''}`.trim(),
  accounting_synced: (f: TimelineFacts) => (f.provider ? `gebucht in ${f.provider}` : null),
  accounting_failed: (f: TimelineFacts) =>
    [f.provider, f.error ? `Meldung: ${f.error}` : null].filter(Boolean).join(' · ') || null,
  accounting_pending: (f: TimelineFacts) => f.provider ?? null,
  webhook_sent: (f: TimelineFacts) => f.event_type ?? null,
  webhook_failed: (f: TimelineFacts) =>
    [`${f.event_type ?? ''} nach ${f.attempts ?? 0} Versuchen`.trim(), f.error ? `Meldung: ${f.error}` : null]
      .filter(Boolean)
      .join(' · '),
  webhook_pending: (f: TimelineFacts) => `${f.event_type ?? ''} · ${f.attempts ?? 0} Versuche`,
  payment_event: (f: TimelineFacts) =>
    [
      [f.provider, f.event_type].filter(Boolean).join(' '),
      f.status ? (resultDe[f.status] ?? f.status) : null,
      f.reason ? `Meldung: ${f.reason}` : null,
    ]
      .filter(Boolean)
      .join(' · '),
};

export const timelineText = defineDictionary(de, {
  created: () => null,
  paid: (f: TimelineFacts) => (f.provider ? `via ${f.provider}` : null),
  fulfilled: () => null,
  cancelled: () => null,
  refund_pending: (f: TimelineFacts) =>
    [
      f.units != null ? `${f.units} unit(s) of ${f.lines ?? 0} line(s)` : 'by amount',
      f.provider ? `via ${f.provider}` : null,
      f.reason ? `Reason: ${f.reason}` : null,
    ]
      .filter(Boolean)
      .join(' · '),
  refunded: (f: TimelineFacts) => (f.provider ? `via ${f.provider}` : null),
  refund_failed: (f: TimelineFacts) => (f.error ? `Message: ${f.error}` : 'no reason given'),
  invoice_draft: () => null,
  invoiced: (f: TimelineFacts) => (f.number ? `Invoice ${f.number}` : null),
  invoice_credited: () => null,
  credit_note: (f: TimelineFacts) => (f.number ? `Credit note ${f.number}` : 'Draft'),
  email_sent: (f: TimelineFacts) => `Invoice ${f.number ?? ''}${f.to ? ` to ${f.to}` : ''}`.trim(),
  accounting_synced: (f: TimelineFacts) => (f.provider ? `booked in ${f.provider}` : null),
  accounting_failed: (f: TimelineFacts) =>
    [f.provider, f.error ? `Message: ${f.error}` : null].filter(Boolean).join(' · ') || null,
  accounting_pending: (f: TimelineFacts) => f.provider ?? null,
  webhook_sent: (f: TimelineFacts) => f.event_type ?? null,
  webhook_failed: (f: TimelineFacts) =>
    [`${f.event_type ?? ''} after ${f.attempts ?? 0} attempts`.trim(), f.error ? `Message: ${f.error}` : null]
      .filter(Boolean)
      .join(' · '),
  webhook_pending: (f: TimelineFacts) => `${f.event_type ?? ''} · ${f.attempts ?? 0} attempts`,
  payment_event: (f: TimelineFacts) =>
    [
      [f.provider, f.event_type].filter(Boolean).join(' '),
      f.status ? (resultEn[f.status] ?? f.status) : null,
      f.reason ? `Message: ${f.reason}` : null,
    ]
      .filter(Boolean)
      .join(' · '),
});
