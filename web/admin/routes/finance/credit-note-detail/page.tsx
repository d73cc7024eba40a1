/**
 * One credit note: its facts, the PDF in the page, the downloads (XRechnung UBL/CII and ZUGFeRD
 * for final ones to business buyers), its lines and VAT, the order's Lexware sync; a draft is
 * finalized (said first: it cannot be undone) or deleted.
 */
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { $api, type ApiProblem } from '../../../../shared/api.js';
import { useCan } from '../../../../shared/auth.js';
import { useFormat } from '../../../../shared/format.js';
import { useDictionary, useErrorMessage, useT } from '../../../../shared/i18n/index.js';
import { Dialog } from '../../../../shared/widgets/Dialog.js';
import { ProblemAlert } from '../../../../shared/widgets/ProblemAlert.js';
import { toast } from '../../../../shared/widgets/Toasts.js';
import { useTitle } from '../../../shell.js';
import { financeText } from '../i18n.js';
import { creditNoteRoute } from '../routes.js';
import { DocBadge, DocumentLines, Downloads, PdfView, SyncPanel } from '../shared.js';

export function CreditNoteDetailPage() {
  const t = useT();
  const s = useDictionary(financeText);
  const d = s.detail;
  const f = useFormat();
  const can = useCan();
  const message = useErrorMessage();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { id } = creditNoteRoute.useParams();
  const query = $api.useQuery('get', '/api/admin/credit-notes/{id}', { params: { path: { id } } });
  const [dialog, setDialog] = useState<'finalize' | 'delete' | null>(null);
  const refresh = async () => {
    for (const k of ['/api/admin/credit-notes/{id}', '/api/admin/credit-notes', '/api/admin/invoices/{id}'])
      await queryClient.invalidateQueries({ queryKey: ['get', k] });
  };
  const onError = (p: ApiProblem) => {
    setDialog(null);
    toast(message(p.code), 'error');
  };
  const finalize = $api.useMutation('post', '/api/admin/credit-notes/{id}/finalize', {
    onSuccess: async (cn) => {
      setDialog(null);
      toast(s.finalize.creditDone(cn.number ?? ''));
      await refresh();
    },
    onError,
  });
  const remove = $api.useMutation('delete', '/api/admin/credit-notes/{id}', {
    onSuccess: async () => {
      setDialog(null);
      toast(s.finalize.deleted);
      const invoiceId = query.data?.invoice_id;
      await refresh();
      if (invoiceId) await navigate({ to: '/finance/invoices/$id', params: { id: invoiceId } });
    },
    onError,
  });
  const cn = query.data;
  // the order's number is the invoice's (a credit note names only the order id)
  const invoice = $api.useQuery(
    'get',
    '/api/admin/invoices/{id}',
    { params: { path: { id: cn?.invoice_id ?? '' } } },
    { enabled: cn !== undefined },
  );
  const title = cn
    ? cn.number
      ? d.creditTitle(cn.number)
      : d.creditDraftTitle(cn.invoice_number)
    : s.creditNotes.title;
  useTitle(title);
  return (
    <div className="page finance-page">
      <p>
        <Link to="/finance/credit-notes" search={{ page: 1, limit: 25 }}>
          ← {d.backCredit}
        </Link>
      </p>
      {query.error ? <ProblemAlert problem={query.error as ApiProblem} /> : null}
      {!cn ? (
        query.isPending ? (
          <p className="muted">{t.common.loading}</p>
        ) : null
      ) : (
        <>
          <div className="page-head">
            <h1>{title}</h1>
            <DocBadge status={cn.status} />
          </div>
          {cn.status === 'draft' ? (
            <div className="actions">
              {can('POST /api/admin/credit-notes/{id}/finalize') ? (
                <button type="button" className="primary" onClick={() => setDialog('finalize')}>
                  {s.finalize.creditTitle}
                </button>
              ) : null}
              {can('DELETE /api/admin/credit-notes/{id}') ? (
                <button type="button" onClick={() => setDialog('delete')}>
                  {s.finalize.deleteDraft}
                </button>
              ) : null}
            </div>
          ) : null}
          <div className="columns">
            <section aria-labelledby="facts-h" className="panel">
              <h2 id="facts-h">{d.facts}</h2>
              <dl className="facts">
                <dt>{d.invoice}</dt>
                <dd>
                  <Link to="/finance/invoices/$id" params={{ id: cn.invoice_id }}>
                    {cn.invoice_number}
                  </Link>
                </dd>
                <dt>{d.order}</dt>
                <dd>
                  <Link to="/orders/$id" params={{ id: cn.order_id }}>
                    {invoice.data?.order_number ?? cn.order_id}
                  </Link>
                </dd>
                <dt>{d.creditDate}</dt>
                <dd>{cn.issue_date ? f.date(cn.issue_date) : t.common.none}</dd>
                <dt>{d.buyer}</dt>
                <dd>
                  {cn.buyer.company ? <span className="block">{cn.buyer.company}</span> : null}
                  {cn.buyer.name}
                  <span className="muted block small">{cn.buyer.email}</span>
                </dd>
                {cn.reason ? (
                  <>
                    <dt>{s.creditNotes.reason}</dt>
                    <dd>{cn.reason}</dd>
                  </>
                ) : null}
                <dt>{d.gross}</dt>
                <dd>{f.money(-cn.total_cents, cn.currency)}</dd>
              </dl>
            </section>
            <Downloads
              base={`/api/admin/credit-notes/${cn.id}`}
              number={cn.number ?? cn.invoice_number}
              einvoice={cn.is_business && cn.status === 'final'}
            />
          </div>
          <section aria-labelledby="lines-h" className="panel">
            <h2 id="lines-h">{d.lines}</h2>
            <DocumentLines doc={cn} caption={d.lines} />
          </section>
          <SyncPanel orderId={cn.order_id} voucherId={cn.lexware_voucher_id} />
          <PdfView href={`/api/admin/credit-notes/${cn.id}/pdf`} name={title} />
          <Dialog
            open={dialog !== null}
            title={dialog === 'delete' ? s.finalize.deleteDraft : s.finalize.creditTitle}
            onClose={() => setDialog(null)}
            confirm={{
              label: dialog === 'delete' ? s.finalize.deleteDraft : s.finalize.creditTitle,
              danger: true,
              busy: finalize.isPending || remove.isPending,
              onConfirm: () =>
                dialog === 'delete'
                  ? remove.mutate({ params: { path: { id: cn.id } } })
                  : finalize.mutate({ params: { path: { id: cn.id } } }),
            }}
          >
            <p>{dialog === 'delete' ? s.finalize.deleteText : s.finalize.creditText}</p>
          </Dialog>
        </>
      )}
    </div>
  );
}
