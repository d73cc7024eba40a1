/**
 * Refund by line or by amount, with a reason. Before anything is sent the dialog shows the server's
 * preview (POST …/refunds/preview): the amount to the provider (or manual), the credit note with
 * its lines and tax, the partner clawback and the order's resulting status; the page computes no
 * tax. One Idempotency-Key per opening of the dialog, so a double click refunds once.
 * Native controls only (fieldset of radios, number inputs, text inputs): keyboard-operable.
 */

import { keepPreviousData, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import type { operations } from '../../../../../clients/typescript/schema.js';
import { $api, type ApiProblem, idempotencyKey } from '../../../../shared/api.js';
import { useFormat } from '../../../../shared/format.js';
import { fieldErrors } from '../../../../shared/forms.js';
import { useLanguage, useT } from '../../../../shared/i18n/index.js';
import { Dialog } from '../../../../shared/widgets/Dialog.js';
import { Field } from '../../../../shared/widgets/Field.js';
import { ProblemAlert } from '../../../../shared/widgets/ProblemAlert.js';
import { toast } from '../../../../shared/widgets/Toasts.js';
import { ORDER_STATUSES } from '../../../router.js';
import type { OrderDetail } from './lines.js';

type Mode = 'lines' | 'amount';
type Body = { amount_cents?: number; lines?: { line_id: string; quantity: number }[] };

/** "12,50" / "12.50" / "1.234,50" (de) or "1,234.50" (en) → cents; undefined when not a money amount. */
export function parseMoney(text: string, language: 'de' | 'en'): number | undefined {
  let s = text.trim().replace(/\s|€/g, '');
  if (s === '') return undefined;
  if (language === 'de') s = s.replace(/\.(?=\d{3}(\D|$))/g, '').replace(',', '.');
  else s = s.replace(/,(?=\d{3}(\D|$))/g, '');
  if (!/^\d+(\.\d{1,2})?$/.test(s)) return undefined;
  const cents = Math.round(Number(s) * 100);
  return Number.isSafeInteger(cents) && cents > 0 ? cents : undefined;
}

function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

export function RefundDialog({ order, open, onClose }: { order: OrderDetail; open: boolean; onClose: () => void }) {
  const t = useT();
  const o = t.orderOps;
  const f = useFormat();
  const language = useLanguage();
  const queryClient = useQueryClient();
  const formId = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const sending = useRef(false);
  const money = (cents: number) => f.money(cents, order.currency);

  const [key, setKey] = useState(idempotencyKey);
  const [mode, setMode] = useState<Mode>('lines');
  const [quantities, setQuantities] = useState<Record<string, number>>({});
  const [amountText, setAmountText] = useState('');
  const [reason, setReason] = useState('');
  const [touched, setTouched] = useState(false);
  const [problem, setProblem] = useState<ApiProblem | null>(null);

  // a new opening is a new action: fresh inputs and a fresh Idempotency-Key
  useEffect(() => {
    if (!open) return;
    setKey(idempotencyKey());
    setMode('lines');
    setQuantities({});
    setAmountText('');
    setReason('');
    setTouched(false);
    setProblem(null);
    sending.current = false;
  }, [open]);

  const path = { path: { id: order.id } };
  // what is still refundable per line (the preview of "all that is left")
  const base = $api.useQuery(
    'post',
    '/api/admin/orders/{id}/refunds/preview',
    { params: path, body: {} },
    { enabled: open, staleTime: 0, gcTime: 0 },
  );
  const refundable = new Map(
    (base.data?.lines ?? []).map((l) => [l.line_id, l.refundable_quantity + l.refund_quantity] as const),
  );

  const amountCents = parseMoney(amountText, language);
  const chosen = Object.entries(quantities)
    .filter(([, q]) => q > 0)
    .map(([line_id, quantity]) => ({ line_id, quantity }));
  const body: Body | null =
    mode === 'lines'
      ? chosen.length > 0
        ? { lines: chosen }
        : null
      : amountCents
        ? { amount_cents: amountCents }
        : null;
  const debounced = useDebounced(body, 250);
  const current = JSON.stringify(body) === JSON.stringify(debounced);
  const preview = $api.useQuery(
    'post',
    '/api/admin/orders/{id}/refunds/preview',
    { params: path, body: debounced ?? {} },
    { enabled: open && debounced !== null, staleTime: 0, gcTime: 0, placeholderData: keepPreviousData, retry: false },
  );

  const refund = $api.useMutation('post', '/api/admin/orders/{id}/refunds', {
    onSuccess: async (result) => {
      toast(
        result.status === 'pending'
          ? o.refundPending(money(result.amount_cents))
          : result.status === 'succeeded'
            ? o.refundSucceeded(money(result.amount_cents))
            : o.refundFailed,
        result.status === 'failed' ? 'error' : 'info',
      );
      onClose();
      for (const k of [
        '/api/admin/orders/{id}',
        '/api/admin/orders/{id}/refunds',
        '/api/admin/orders/{id}/timeline',
        '/api/admin/invoices',
        '/api/admin/credit-notes',
        '/api/admin/payment-events',
        '/api/admin/orders',
      ])
        await queryClient.invalidateQueries({ queryKey: ['get', k] });
    },
    onError: (p: ApiProblem) => {
      sending.current = false;
      setProblem(p);
    },
  });

  const errors = fieldErrors(problem, ['reason', 'amount_cents', 'lines'], t);
  const reasonError = touched && reason.trim() === '' ? o.reasonRequired : errors.fields.reason;
  const amountError =
    mode === 'amount' && touched && amountCents === undefined ? o.amountInvalid : errors.fields.amount_cents;
  const nothing = touched && body === null && mode === 'lines' ? o.nothingChosen : errors.fields.lines;
  const ready = body !== null && current && preview.data && !preview.isFetching && !preview.error;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setTouched(true);
    if (sending.current) return; // a second click while the first is under way
    if (!body || reason.trim() === '' || !ready) {
      const invalid = formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
      invalid?.focus();
      return;
    }
    sending.current = true;
    setProblem(null);
    refund.mutate({ params: path, body: { ...body, reason: reason.trim() }, headers: { 'Idempotency-Key': key } });
  };

  const p = preview.data;
  const statusName = (s: string) =>
    (ORDER_STATUSES as readonly string[]).includes(s) ? t.orders.statuses[s as (typeof ORDER_STATUSES)[number]] : s;

  return (
    <Dialog
      open={open}
      title={o.refundTitle(order.number)}
      onClose={onClose}
      confirm={{
        label: p && ready ? o.confirmRefund(money(p.amount_cents)) : o.refund,
        danger: true,
        busy: refund.isPending,
        onConfirm: () => formRef.current?.requestSubmit(),
      }}
    >
      <form id={formId} ref={formRef} onSubmit={onSubmit} noValidate className="refund-form">
        {problem && !problem.errors?.length ? <ProblemAlert problem={problem} /> : null}
        <fieldset className="modes">
          <legend>{o.refundHow}</legend>
          <label>
            <input
              type="radio"
              name="mode"
              value="lines"
              checked={mode === 'lines'}
              onChange={() => setMode('lines')}
            />{' '}
            {o.byLine}
          </label>
          <label>
            <input
              type="radio"
              name="mode"
              value="amount"
              checked={mode === 'amount'}
              onChange={() => setMode('amount')}
            />{' '}
            {o.byAmount}
          </label>
        </fieldset>
        {mode === 'lines' ? (
          <fieldset className="refund-lines">
            <legend>{t.order.lines}</legend>
            {nothing ? (
              <p className="field-error" role="alert">
                {nothing}
              </p>
            ) : null}
            {order.lines.map((line) => {
              const max = refundable.get(line.id) ?? 0;
              return (
                <div key={line.id} className="refund-line">
                  <Field
                    label={o.refundQuantity(line.name)}
                    name={`qty-${line.id}`}
                    type="number"
                    inputMode="numeric"
                    min={0}
                    max={max}
                    step={1}
                    disabled={max === 0}
                    value={String(quantities[line.id] ?? 0)}
                    hint={`${o.refundableOf(max, line.quantity)} · ${money(line.unit_price_cents)}`}
                    onChange={(e) => {
                      const n = Math.trunc(Number(e.currentTarget.value));
                      const q = Number.isFinite(n) ? Math.min(Math.max(n, 0), max) : 0;
                      setQuantities((prev) => ({ ...prev, [line.id]: q }));
                    }}
                  />
                </div>
              );
            })}
          </fieldset>
        ) : (
          <Field
            label={o.amountLabel(order.currency)}
            name="amount"
            inputMode="decimal"
            autoComplete="off"
            value={amountText}
            onChange={(e) => setAmountText(e.currentTarget.value)}
            hint={o.amountHint(base.data ? money(base.data.refundable_before) : '…')}
            error={amountError}
          />
        )}
        <Field
          label={o.reasonLabel}
          name="reason"
          required
          maxLength={500}
          autoComplete="off"
          value={reason}
          onChange={(e) => setReason(e.currentTarget.value)}
          error={reasonError}
        />
        <section aria-labelledby={`${formId}-preview`} className="refund-preview" aria-live="polite">
          <h3 id={`${formId}-preview`}>{o.previewTitle}</h3>
          {body === null ? <p className="muted">{o.nothingChosen}</p> : null}
          {body !== null && (!current || preview.isFetching) ? <p className="muted">{o.previewLoading}</p> : null}
          {body !== null && preview.error ? <ProblemAlert problem={preview.error as ApiProblem} /> : null}
          {body !== null && p && !preview.error ? <PreviewDetails preview={p} statusName={statusName} /> : null}
        </section>
      </form>
    </Dialog>
  );
}

type Preview = operations['createOrdersRefundsPreview']['responses'][200]['content']['application/json'];

function PreviewDetails({ preview: p, statusName }: { preview: Preview; statusName: (s: string) => string }) {
  const t = useT();
  const o = t.orderOps;
  const f = useFormat();
  const money = (cents: number) => f.money(cents, p.currency);
  const names = o.taxCategories as Record<string, string>;
  return (
    <>
      <p className="preview-amount">
        {p.provider === 'manual'
          ? o.toManual(money(p.amount_cents))
          : o.toProvider(money(p.amount_cents), o.providers[p.provider])}
      </p>
      <p>
        {o.refundableBeforeAfter(money(p.refundable_before), money(p.refundable_after))}{' '}
        {o.resulting(statusName(p.resulting_status))}
      </p>
      {p.credit_note ? (
        <>
          <p>{o.creditNoteWill}</p>
          <div className="table-wrap">
            <table className="data compact">
              <thead>
                <tr>
                  <th scope="col">{t.order.product}</th>
                  <th scope="col" className="num">
                    {t.order.quantity}
                  </th>
                  <th scope="col">{o.taxDecision}</th>
                  <th scope="col" className="num">
                    {o.net}
                  </th>
                  <th scope="col" className="num">
                    {o.gross}
                  </th>
                </tr>
              </thead>
              <tbody>
                {p.credit_note.lines.map((l, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: preview lines have no id
                  <tr key={i}>
                    <th scope="row">{l.name}</th>
                    <td className="num">{f.number(l.quantity)}</td>
                    <td>
                      <abbr title={names[l.tax_category] ?? l.tax_category}>{l.tax_category}</abbr>{' '}
                      {f.percent(l.tax_rate)} · {money(l.tax_cents)}
                      {l.tax_exemption_reason ? (
                        <span className="muted block small">{l.tax_exemption_reason}</span>
                      ) : null}
                    </td>
                    <td className="num">{money(l.net_cents)}</td>
                    <td className="num">{money(l.gross_cents)}</td>
                  </tr>
                ))}
              </tbody>
              <tfoot>
                <tr className="total">
                  <th scope="row" colSpan={2}>
                    {o.creditNote}
                  </th>
                  <td>{money(p.credit_note.tax_cents)}</td>
                  <td className="num">{money(p.credit_note.net_cents)}</td>
                  <td className="num">{money(p.credit_note.total_cents)}</td>
                </tr>
              </tfoot>
            </table>
          </div>
        </>
      ) : (
        <p className="muted">{o.noCreditNote}</p>
      )}
      <h4>{o.clawback}</h4>
      {p.partner_clawback.length === 0 ? (
        <p className="muted">{o.noClawback}</p>
      ) : (
        <ul>
          {p.partner_clawback.map((c) => (
            <li key={c.partner_id}>
              {o.partnerTypes[c.partner_type]} {c.name}: {money(c.amount_cents)}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
