/**
 * One invoice: its facts, the PDF in the page, the downloads (PDF; XRechnung UBL/CII and ZUGFeRD
 * for final business invoices), whether its e-invoice would pass, its lines and VAT, its credit
 * notes and the order's Lexware sync; finalize, send by e-mail and create a credit note (each in
 * a dialog; hidden when the role may not call it).
 */
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { $api, type ApiProblem } from '../../../../shared/api.js';
import { useCan } from '../../../../shared/auth.js';
import { useFormat } from '../../../../shared/format.js';
import { useDictionary, useT } from '../../../../shared/i18n/index.js';
import { ProblemAlert } from '../../../../shared/widgets/ProblemAlert.js';
import { useTitle } from '../../../shell.js';
import { financeText } from '../i18n.js';
import { invoiceRoute } from '../routes.js';
import { DocBadge, DocumentLines, Downloads, PdfView, SyncPanel } from '../shared.js';
import { CreditNoteDialog } from './credit-dialog.js';
import { FinalizeDialog, SendDialog } from './dialogs.js';
import { DeleteDraftDialog, EditDraftDialog } from './draft-dialogs.js';

function EinvoiceCheck({ id, draft }: { id: string; draft: boolean }) {
  const s = useDictionary(financeText);
  const check = $api.useQuery('get', '/api/admin/invoices/{id}/einvoice-check', { params: { path: { id } } });
  const c = check.data;
  return (
    <section aria-labelledby="check-h" className="panel">
      <h2 id="check-h">{s.check.title}</h2>
      {check.error ? <ProblemAlert problem={check.error as ApiProblem} /> : null}
      {c && !c.applicable ? <p>{s.check.consumer}</p> : null}
      {c?.applicable && c.would_pass ? (
        <p className="check-pass">✓ {draft ? s.check.passDraft : s.check.pass}</p>
      ) : null}
      {c?.applicable && !c.would_pass ? (
        <div className="alert alert-warning">
          <p>{s.check.fail}</p>
          <ul>
            {c.problems.map((p) => (
              <li key={`${p.path}|${p.message_code}`}>
                <code>{p.path}</code>: {s.company.codes[p.message_code] ?? p.message_code} ({p.message})
              </li>
            ))}
          </ul>
          {c.problems.some((p) => p.path.startsWith('/seller/')) ? (
            <p>
              <Link to="/settings/company">{s.check.fixCompany}</Link>
            </p>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}

export function InvoiceDetailPage() {
  const t = useT();
  const s = useDictionary(financeText);
  const d = s.detail;
  const f = useFormat();
  const can = useCan();
  const { id } = invoiceRoute.useParams();
  const query = $api.useQuery('get', '/api/admin/invoices/{id}', { params: { path: { id } } });
  const notes = $api.useQuery(
    'get',
    '/api/admin/credit-notes',
    { params: { query: { invoice_id: id, limit: 50 } } },
    { enabled: can('GET /api/admin/credit-notes') },
  );
  const [dialog, setDialog] = useState<'finalize' | 'send' | 'credit' | 'edit' | 'delete' | null>(null);
  const inv = query.data;
  const title = inv ? (inv.number ? d.invoiceTitle(inv.number) : d.draftTitle(inv.order_number)) : s.invoices.title;
  useTitle(title);
  const close = () => setDialog(null);
  const money = (c: number) => f.money(c, inv?.currency ?? 'EUR');
  return (
    <div className="page finance-page">
      <p>
        <Link to="/finance/invoices" search={{ page: 1, limit: 25 }}>
          ← {d.back}
        </Link>
      </p>
      {query.error ? <ProblemAlert problem={query.error as ApiProblem} /> : null}
      {!inv ? (
        query.isPending ? (
          <p className="muted">{t.common.loading}</p>
        ) : null
      ) : (
        <>
          <div className="page-head">
            <h1>{title}</h1>
            <DocBadge status={inv.status} />
          </div>
          <div className="actions">
            {inv.status === 'draft' && can('POST /api/admin/invoices/{id}/finalize') ? (
              <button type="button" className="primary" onClick={() => setDialog('finalize')}>
                {s.finalize.action}
              </button>
            ) : null}
            {inv.status === 'draft' && can('PATCH /api/admin/invoices/{id}') ? (
              <button type="button" onClick={() => setDialog('edit')}>
                {s.draft.edit}
              </button>
            ) : null}
            {inv.status === 'draft' && can('DELETE /api/admin/invoices/{id}') ? (
              <button type="button" className="danger" onClick={() => setDialog('delete')}>
                {s.draft.delete}
              </button>
            ) : null}
            {inv.status !== 'draft' && can('POST /api/admin/invoices/{id}/send-email') ? (
              <button type="button" onClick={() => setDialog('send')}>
                {s.send.action}
              </button>
            ) : null}
            {(inv.status === 'final' || inv.status === 'partially_credited') &&
            can('POST /api/admin/invoices/{id}/credit-note') ? (
              <button type="button" onClick={() => setDialog('credit')}>
                {s.credit.action}
              </button>
            ) : null}
          </div>
          <div className="columns">
            <section aria-labelledby="facts-h" className="panel">
              <h2 id="facts-h">{d.facts}</h2>
              <dl className="facts">
                <dt>{d.order}</dt>
                <dd>
                  <Link to="/orders/$id" params={{ id: inv.order_id }}>
                    {inv.order_number}
                  </Link>
                </dd>
                <dt>{d.issueDate}</dt>
                <dd>{inv.issue_date ? f.date(inv.issue_date) : t.common.none}</dd>
                {inv.due_date ? (
                  <>
                    <dt>{d.dueDate}</dt>
                    <dd>{f.date(inv.due_date)}</dd>
                  </>
                ) : null}
                {inv.service_period_start && inv.service_period_end ? (
                  <>
                    <dt>{d.servicePeriod}</dt>
                    <dd>
                      {f.date(inv.service_period_start)} – {f.date(inv.service_period_end)}
                    </dd>
                  </>
                ) : (
                  <>
                    <dt>{d.serviceDate}</dt>
                    <dd>{f.date(inv.service_date)}</dd>
                  </>
                )}
                <dt>{d.buyer}</dt>
                <dd>
                  {inv.buyer.company ? <span className="block">{inv.buyer.company}</span> : null}
                  {inv.buyer.name}
                  <span className="muted block small">
                    {inv.buyer.email}
                    {inv.buyer.vat_id ? ` · ${inv.buyer.vat_id}` : ''}
                  </span>
                  <span className="block small">{inv.is_business ? d.business : d.consumer}</span>
                </dd>
                <dt>{d.paid}</dt>
                <dd>{money(inv.paid_cents)}</dd>
                {inv.amount_due_cents > 0 ? (
                  <>
                    <dt>{d.due}</dt>
                    <dd>{money(inv.amount_due_cents)}</dd>
                  </>
                ) : null}
                {inv.credited_cents > 0 ? (
                  <>
                    <dt>{d.credited}</dt>
                    <dd>{money(inv.credited_cents)}</dd>
                  </>
                ) : null}
                {inv.status !== 'draft' ? (
                  <>
                    <dt>{d.sent}</dt>
                    <dd>
                      {inv.sent_at && inv.sent_to
                        ? d.sentTo(inv.sent_to, f.dateTime(inv.sent_at), inv.send_count)
                        : d.notSent}
                    </dd>
                  </>
                ) : null}
              </dl>
            </section>
            <div>
              <Downloads
                base={`/api/admin/invoices/${inv.id}`}
                number={inv.number ?? inv.order_number}
                einvoice={inv.is_business && inv.status !== 'draft'}
              />
              <EinvoiceCheck id={inv.id} draft={inv.status === 'draft'} />
            </div>
          </div>
          <section aria-labelledby="lines-h" className="panel">
            <h2 id="lines-h">{d.lines}</h2>
            <DocumentLines doc={inv} caption={d.lines} />
          </section>
          {inv.status !== 'draft' ? (
            <section aria-labelledby="cn-h" className="panel">
              <h2 id="cn-h">{d.creditNotes}</h2>
              {notes.data && notes.data.credit_notes.length === 0 ? <p className="muted">{d.noCreditNotes}</p> : null}
              {notes.data && notes.data.credit_notes.length > 0 ? (
                <ul className="plain-list">
                  {notes.data.credit_notes.map((cn) => (
                    <li key={cn.id}>
                      <Link to="/finance/credit-notes/$id" params={{ id: cn.id }}>
                        {cn.number ?? s.invoices.draftNumber}
                      </Link>{' '}
                      · {t.orderOps.creditNoteStatus[cn.status]} · {f.money(-cn.total_cents, cn.currency)}
                    </li>
                  ))}
                </ul>
              ) : null}
            </section>
          ) : null}
          <SyncPanel orderId={inv.order_id} voucherId={inv.lexware_voucher_id} />
          <PdfView href={`/api/admin/invoices/${inv.id}/pdf`} name={title} />
          <FinalizeDialog id={inv.id} open={dialog === 'finalize'} onClose={close} />
          <SendDialog id={inv.id} buyerEmail={inv.buyer.email} open={dialog === 'send'} onClose={close} />
          <CreditNoteDialog invoice={inv} open={dialog === 'credit'} onClose={close} />
          {inv.status === 'draft' ? (
            <>
              <EditDraftDialog invoice={inv} open={dialog === 'edit'} onClose={close} />
              <DeleteDraftDialog invoice={inv} open={dialog === 'delete'} onClose={close} />
            </>
          ) : null}
        </>
      )}
    </div>
  );
}
