/**
 * What the invoice and credit-note screens share: the document's lines with its VAT groups and
 * totals (as the server computed them), the PDF shown in the page, the download links, and the
 * order's Lexware sync with retry and cancel (its rules and calls: orders/lexware-sync.ts).
 */
import { Link } from '@tanstack/react-router';
import type { ApiProblem } from '../../../shared/api.js';
import { useFormat } from '../../../shared/format.js';
import { useDictionary, useErrorMessage, useT } from '../../../shared/i18n/index.js';
import { Dialog } from '../../../shared/widgets/Dialog.js';
import { useLexwareSync } from '../orders/lexware-sync.js';
import { financeText } from './i18n.js';

interface Line {
  position: number;
  name: string;
  sku: string | null;
  quantity: number;
  unit_price_cents: number;
  line_total_cents: number;
  tax_rate: number;
}
interface Group {
  tax_rate: number;
  tax_category: string;
  net_cents: number;
  tax_cents: number;
  gross_cents: number;
}
export interface DocumentBody {
  currency: string;
  lines: Line[];
  tax_breakdown: Group[];
  net_cents: number;
  tax_cents: number;
  total_cents: number;
}

/** The lines, VAT groups and totals of a document (or a preview of one). */
export function DocumentLines({ doc, caption }: { doc: DocumentBody; caption: string }) {
  const s = useDictionary(financeText).detail;
  const f = useFormat();
  const money = (c: number) => f.money(c, doc.currency);
  return (
    <div className="table-wrap">
      <table className="data">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col" className="num">
              {s.position}
            </th>
            <th scope="col">{s.item}</th>
            <th scope="col" className="num">
              {s.quantity}
            </th>
            <th scope="col" className="num">
              {s.unitPrice}
            </th>
            <th scope="col" className="num">
              {s.vat}
            </th>
            <th scope="col" className="num">
              {s.lineTotal}
            </th>
          </tr>
        </thead>
        <tbody>
          {doc.lines.map((l) => (
            <tr key={l.position}>
              <td className="num">{l.position}</td>
              <th scope="row">
                {l.name}
                {l.sku ? <span className="muted block small">{l.sku}</span> : null}
              </th>
              <td className="num">{f.number(l.quantity)}</td>
              <td className="num">{money(l.unit_price_cents)}</td>
              <td className="num">{f.percent(l.tax_rate)}</td>
              <td className="num">{money(l.line_total_cents)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          {doc.tax_breakdown.map((g) => (
            <tr key={`${g.tax_category}|${g.tax_rate}`}>
              <th scope="row" colSpan={5}>
                {s.net} {f.percent(g.tax_rate)} ({g.tax_category}): {money(g.net_cents)} · {s.tax} {money(g.tax_cents)}
              </th>
              <td className="num">{money(g.gross_cents)}</td>
            </tr>
          ))}
          <tr>
            <th scope="row" colSpan={5}>
              {s.net}
            </th>
            <td className="num">{money(doc.net_cents)}</td>
          </tr>
          <tr>
            <th scope="row" colSpan={5}>
              {s.tax}
            </th>
            <td className="num">{money(doc.tax_cents)}</td>
          </tr>
          <tr className="total">
            <th scope="row" colSpan={5}>
              {s.gross}
            </th>
            <td className="num">{money(doc.total_cents)}</td>
          </tr>
        </tfoot>
      </table>
    </div>
  );
}

/** The document's PDF inside the page (same origin: the admin's CSP allows it), with a fallback link. */
export function PdfView({ href, name }: { href: string; name: string }) {
  const s = useDictionary(financeText).detail;
  return (
    <section aria-labelledby="pdf-h" className="panel">
      <h2 id="pdf-h">{s.document}</h2>
      <object className="pdf-view" data={href} type="application/pdf" title={s.pdfTitle(name)}>
        <p>
          {s.pdfFallback} <a href={href}>{s.openPdf}</a>
        </p>
      </object>
    </section>
  );
}

/** PDF, and for business buyers of final documents XRechnung UBL/CII and ZUGFeRD. */
export function Downloads({ base, number, einvoice }: { base: string; number: string; einvoice: boolean }) {
  const t = useT();
  const s = useDictionary(financeText).detail;
  const o = t.orderOps;
  // PDFs as attachments: a browser's PDF viewer would otherwise show them despite `download`
  const links: [string, string][] = [[o.pdf, `${base}/pdf?download=true`]];
  if (einvoice)
    links.push(
      [o.xrechnungUbl, `${base}/xrechnung?syntax=ubl`],
      [o.xrechnungCii, `${base}/xrechnung?syntax=cii`],
      [o.zugferd, `${base}/pdf?format=zugferd&download=true`],
    );
  return (
    <section aria-labelledby="dl-h" className="panel">
      <h2 id="dl-h">{s.downloads}</h2>
      <ul className="downloads">
        {links.map(([label, href]) => (
          <li key={href}>
            <a href={href} download aria-label={o.downloadOf(label, number)}>
              {label}
            </a>
          </li>
        ))}
      </ul>
      {einvoice ? null : <p className="muted small">{s.downloadsHint}</p>}
    </section>
  );
}

/** The order's Lexware sync: state, the provider's message, retry and cancel (each confirmed). */
export function SyncPanel({ orderId, voucherId }: { orderId: string; voucherId: string | null }) {
  const t = useT();
  const s = useDictionary(financeText);
  const f = useFormat();
  const message = useErrorMessage();
  const { allowed, query, sync, canRetry, canCancel, pending, setPending, run } = useLexwareSync(orderId, [
    '/api/admin/accounting/syncs',
  ]);
  const path = { params: { path: { id: orderId } } };
  if (!allowed) return null;
  return (
    <section aria-labelledby="sync-h" className="panel">
      <h2 id="sync-h">{s.detail.accounting}</h2>
      <p>{voucherId ? s.detail.voucher(voucherId) : s.detail.notBooked}</p>
      {query.error ? <p className="muted">{message((query.error as ApiProblem).code)}</p> : null}
      {sync ? (
        <dl className="facts">
          <dt>{t.orders.status}</dt>
          <dd>
            {t.orderOps.syncStatus[sync.status]}
            {sync.attempts > 0 ? <span className="muted"> · {t.orderOps.attempts(sync.attempts)}</span> : null}
          </dd>
          {sync.synced_at ? (
            <>
              <dt>{t.orderOps.syncStatus.synced}</dt>
              <dd>{f.dateTime(sync.synced_at)}</dd>
            </>
          ) : null}
          {sync.last_error ? (
            <>
              <dt>{t.orderOps.lastError}</dt>
              <dd>{sync.last_error}</dd>
            </>
          ) : null}
        </dl>
      ) : null}
      <div className="actions">
        {canRetry ? (
          <button type="button" onClick={() => setPending('retry')}>
            {t.orderOps.retrySync}
          </button>
        ) : null}
        {canCancel ? (
          <button type="button" onClick={() => setPending('cancel')}>
            {t.orderOps.cancelSync}
          </button>
        ) : null}
        <Link to="/finance/accounting" search={{ page: 1, limit: 25, status: 'failed' }}>
          {s.detail.toAccounting}
        </Link>
      </div>
      <Dialog
        open={pending !== null}
        title={pending === 'retry' ? t.orderOps.retrySync : t.orderOps.cancelSync}
        onClose={() => setPending(null)}
        confirm={{
          label: pending === 'retry' ? t.orderOps.retrySync : t.orderOps.cancelSync,
          busy: run.isPending,
          onConfirm: () => run.mutate(path),
        }}
      >
        <p>{pending === 'retry' ? t.orderOps.confirmRetrySync : t.orderOps.confirmCancelSync}</p>
      </Dialog>
    </section>
  );
}

/** A document status as a badge (reuses the order badges' colours where they mean the same). */
export function DocBadge({ status }: { status: 'draft' | 'final' | 'partially_credited' | 'credited' }) {
  const t = useT();
  return <span className={`badge badge-doc-${status}`}>{t.orderOps.invoiceStatus[status]}</span>;
}
