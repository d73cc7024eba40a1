/**
 * The order's invoices and credit notes with their downloads (PDF; for business buyers XRechnung
 * UBL/CII and ZUGFeRD), creating the draft invoice and finalizing it — said first: it cannot be
 * undone and the number is assigned then.
 */
import { useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { $api, type ApiProblem } from '../../../../shared/api.js';
import { useCan } from '../../../../shared/auth.js';
import { useFormat } from '../../../../shared/format.js';
import { useErrorMessage, useT } from '../../../../shared/i18n/index.js';
import { Dialog } from '../../../../shared/widgets/Dialog.js';
import { toast } from '../../../../shared/widgets/Toasts.js';
import type { OrderDetail } from './lines.js';

type Confirm = { kind: 'create' } | { kind: 'finalize'; id: string };

function Downloads({ base, number, business }: { base: string; number: string; business: boolean }) {
  const t = useT();
  const o = t.orderOps;
  const links: [string, string][] = [[o.pdf, `${base}/pdf`]];
  if (business)
    links.push(
      [o.xrechnungUbl, `${base}/xrechnung?syntax=ubl`],
      [o.xrechnungCii, `${base}/xrechnung?syntax=cii`],
      [o.zugferd, `${base}/pdf?format=zugferd`],
    );
  return (
    <ul className="downloads">
      {links.map(([label, href]) => (
        <li key={href}>
          <a href={href} download aria-label={o.downloadOf(label, number)}>
            {label}
          </a>
        </li>
      ))}
    </ul>
  );
}

export function OrderInvoices({ order }: { order: OrderDetail }) {
  const t = useT();
  const o = t.orderOps;
  const f = useFormat();
  const can = useCan();
  const message = useErrorMessage();
  const queryClient = useQueryClient();
  const [confirm, setConfirm] = useState<Confirm | null>(null);
  const allowed = can('GET /api/admin/invoices');
  const invoices = $api.useQuery(
    'get',
    '/api/admin/invoices',
    { params: { query: { order_id: order.id, limit: 20 } } },
    { enabled: allowed },
  );
  const creditNotes = $api.useQuery(
    'get',
    '/api/admin/credit-notes',
    { params: { query: { order_id: order.id, limit: 50 } } },
    { enabled: can('GET /api/admin/credit-notes') },
  );
  const refresh = async () => {
    for (const key of [
      '/api/admin/invoices',
      '/api/admin/credit-notes',
      '/api/admin/orders/{id}/timeline',
      '/api/admin/orders/{id}/lexware',
    ])
      await queryClient.invalidateQueries({ queryKey: ['get', key] });
  };
  const onError = (p: ApiProblem) => {
    setConfirm(null);
    toast(message(p.code), 'error');
  };
  const create = $api.useMutation('post', '/api/admin/orders/{orderId}/invoice', {
    onSuccess: async () => {
      setConfirm(null);
      toast(o.invoiceCreated);
      await refresh();
    },
    onError,
  });
  const finalize = $api.useMutation('post', '/api/admin/invoices/{id}/finalize', {
    onSuccess: async (invoice) => {
      setConfirm(null);
      toast(o.invoiceFinalized(invoice.number ?? ''));
      await refresh();
    },
    onError,
  });
  if (!allowed) return null;
  const list = invoices.data?.invoices ?? [];
  const notes = creditNotes.data?.credit_notes ?? [];
  const open = list.some((i) => i.status !== 'credited');
  const mayCreate =
    invoices.data && !open && order.status !== 'cancelled' && can('POST /api/admin/orders/{orderId}/invoice');
  const mayFinalize = can('POST /api/admin/invoices/{id}/finalize');
  return (
    <section aria-labelledby="inv-h" className="panel">
      <h2 id="inv-h">{o.documents}</h2>
      {invoices.isPending ? <p className="muted">{t.common.loading}</p> : null}
      {invoices.data && list.length === 0 ? <p className="muted">{o.noInvoices}</p> : null}
      {list.length + notes.length > 0 ? (
        <div className="table-wrap">
          <table className="data">
            <thead>
              <tr>
                <th scope="col">{o.document}</th>
                <th scope="col">{t.orders.status}</th>
                <th scope="col" className="num">
                  {o.total}
                </th>
                <th scope="col">{o.downloads}</th>
              </tr>
            </thead>
            <tbody>
              {list.map((inv) => (
                <tr key={inv.id}>
                  <th scope="row">
                    <Link to="/finance/invoices/$id" params={{ id: inv.id }}>
                      {inv.number ?? o.draft}
                    </Link>
                    {inv.issue_date ? <span className="muted block small">{f.date(inv.issue_date)}</span> : null}
                  </th>
                  <td>{o.invoiceStatus[inv.status]}</td>
                  <td className="num">{f.money(inv.total_cents, inv.currency)}</td>
                  <td>
                    {inv.status === 'draft' ? (
                      mayFinalize ? (
                        <button type="button" onClick={() => setConfirm({ kind: 'finalize', id: inv.id })}>
                          {o.finalize}
                        </button>
                      ) : null
                    ) : (
                      <Downloads
                        base={`/api/admin/invoices/${inv.id}`}
                        number={inv.number ?? ''}
                        business={inv.is_business}
                      />
                    )}
                  </td>
                </tr>
              ))}
              {notes.map((cn) => (
                <tr key={cn.id}>
                  <th scope="row">
                    <Link to="/finance/credit-notes/$id" params={{ id: cn.id }}>
                      {o.creditNote} {cn.number ?? o.draft}
                    </Link>
                    <span className="muted block small">{o.creditNoteOf(cn.invoice_number)}</span>
                  </th>
                  <td>{o.creditNoteStatus[cn.status]}</td>
                  <td className="num">{f.money(-cn.total_cents, cn.currency)}</td>
                  <td>
                    {cn.status === 'final' ? (
                      <Downloads
                        base={`/api/admin/credit-notes/${cn.id}`}
                        number={cn.number ?? ''}
                        business={cn.is_business}
                      />
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {mayCreate ? (
        <div className="actions">
          <button type="button" onClick={() => setConfirm({ kind: 'create' })}>
            {o.createInvoice}
          </button>
        </div>
      ) : null}
      <Dialog
        open={confirm !== null}
        title={confirm?.kind === 'finalize' ? o.finalize : o.createInvoice}
        onClose={() => setConfirm(null)}
        confirm={{
          label: confirm?.kind === 'finalize' ? o.finalize : o.createInvoice,
          danger: confirm?.kind === 'finalize',
          busy: create.isPending || finalize.isPending,
          onConfirm: () => {
            if (confirm?.kind === 'finalize') finalize.mutate({ params: { path: { id: confirm.id } } });
            else create.mutate({ params: { path: { orderId: order.id } }, body: {} });
          },
        }}
      >
        <p>{confirm?.kind === 'finalize' ? o.confirmFinalize : o.confirmCreateInvoice}</p>
      </Dialog>
    </section>
  );
}
