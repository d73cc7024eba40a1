/**
 * Create a credit note for a final invoice, by lines (quantities of its positions) or by a gross
 * amount; the server's preview shows the lines, VAT and totals it would have (the page computes no
 * tax), and what is left to credit before and after.
 */
import { keepPreviousData, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { $api, type ApiProblem } from '../../../../shared/api.js';
import { useFormat } from '../../../../shared/format.js';
import { fieldErrors } from '../../../../shared/forms.js';
import { useDictionary, useLanguage, useT } from '../../../../shared/i18n/index.js';
import { Dialog } from '../../../../shared/widgets/Dialog.js';
import { Field } from '../../../../shared/widgets/Field.js';
import { ProblemAlert } from '../../../../shared/widgets/ProblemAlert.js';
import { toast } from '../../../../shared/widgets/Toasts.js';
import { financeText } from '../i18n.js';
import { DocumentLines } from '../shared.js';

type Body = { amount_cents?: number; lines?: { position: number; quantity: number }[] };

/** "12,50" / "1.234,50" (de) or "1,234.50" (en) → cents; undefined when not a money amount. */
function parseMoney(text: string, language: 'de' | 'en'): number | undefined {
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

export function CreditNoteDialog({
  invoice,
  open,
  onClose,
}: {
  invoice: { id: string; number: string | null; currency: string };
  open: boolean;
  onClose: () => void;
}) {
  const t = useT();
  const s = useDictionary(financeText).credit;
  const f = useFormat();
  const language = useLanguage();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const formId = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const money = (cents: number) => f.money(cents, invoice.currency);
  const [mode, setMode] = useState<'lines' | 'amount'>('lines');
  const [quantities, setQuantities] = useState<Record<number, number>>({});
  const [amountText, setAmountText] = useState('');
  const [reason, setReason] = useState('');
  const [touched, setTouched] = useState(false);
  const [problem, setProblem] = useState<ApiProblem | null>(null);

  useEffect(() => {
    if (!open) return;
    setMode('lines');
    setQuantities({});
    setAmountText('');
    setReason('');
    setTouched(false);
    setProblem(null);
  }, [open]);

  const path = { path: { id: invoice.id } };
  // what is left per line and in all (the preview of "everything left")
  const base = $api.useQuery(
    'post',
    '/api/admin/invoices/{id}/credit-note-preview',
    { params: path, body: {} },
    { enabled: open, staleTime: 0, gcTime: 0, retry: false },
  );
  const amountCents = parseMoney(amountText, language);
  const chosen = Object.entries(quantities)
    .filter(([, q]) => q > 0)
    .map(([position, quantity]) => ({ position: Number(position), quantity }));
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
    '/api/admin/invoices/{id}/credit-note-preview',
    { params: path, body: debounced ?? {} },
    { enabled: open && debounced !== null, staleTime: 0, gcTime: 0, placeholderData: keepPreviousData, retry: false },
  );
  const create = $api.useMutation('post', '/api/admin/invoices/{id}/credit-note', {
    onSuccess: async (note) => {
      toast(s.done);
      onClose();
      for (const k of ['/api/admin/invoices/{id}', '/api/admin/invoices', '/api/admin/credit-notes'])
        await queryClient.invalidateQueries({ queryKey: ['get', k] });
      await navigate({ to: '/finance/credit-notes/$id', params: { id: note.id } });
    },
    onError: (p: ApiProblem) => setProblem(p),
  });

  const errors = fieldErrors(problem ?? (preview.error as ApiProblem | null), ['amount_cents', 'lines', 'reason'], t);
  const amountError =
    mode === 'amount' && touched && amountCents === undefined ? s.amountInvalid : errors.fields.amount_cents;
  const ready = body !== null && current && preview.data && !preview.isFetching && !preview.error;
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setTouched(true);
    if (!body || !ready || create.isPending) {
      formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
      return;
    }
    setProblem(null);
    create.mutate({ params: path, body: { ...body, ...(reason.trim() ? { reason: reason.trim() } : {}) } });
  };
  const p = preview.data;
  const left = base.data?.left_before_cents;
  return (
    <Dialog
      open={open}
      title={s.title}
      onClose={onClose}
      confirm={{
        label: p && ready ? s.confirm(money(p.total_cents)) : s.title,
        busy: create.isPending,
        onConfirm: () => formRef.current?.requestSubmit(),
      }}
    >
      <form id={formId} ref={formRef} onSubmit={onSubmit} noValidate className="refund-form">
        {problem && !problem.errors?.length ? <ProblemAlert problem={problem} /> : null}
        {base.error ? <ProblemAlert problem={base.error as ApiProblem} /> : null}
        <fieldset className="modes">
          <legend>{s.how}</legend>
          <label>
            <input type="radio" name="mode" checked={mode === 'lines'} onChange={() => setMode('lines')} /> {s.byLines}
          </label>
          <label>
            <input type="radio" name="mode" checked={mode === 'amount'} onChange={() => setMode('amount')} />{' '}
            {s.byAmount}
          </label>
        </fieldset>
        {mode === 'lines' ? (
          <fieldset>
            <legend>{t.order.lines}</legend>
            {touched && body === null ? (
              <p className="field-error" role="alert">
                {s.nothing}
              </p>
            ) : errors.fields.lines ? (
              <p className="field-error" role="alert">
                {errors.fields.lines}
              </p>
            ) : null}
            {(base.data?.invoice_lines ?? []).map((line) => (
              <Field
                key={line.position}
                label={s.quantityOf(line.name)}
                name={`qty-${line.position}`}
                type="number"
                inputMode="numeric"
                min={0}
                max={line.quantity_left}
                step={1}
                disabled={line.quantity_left === 0}
                value={String(quantities[line.position] ?? 0)}
                hint={`${s.leftOf(line.quantity_left, line.quantity)} · ${money(line.unit_price_cents)}`}
                onChange={(e) => {
                  const n = Math.trunc(Number(e.currentTarget.value));
                  const q = Number.isFinite(n) ? Math.min(Math.max(n, 0), line.quantity_left) : 0;
                  setQuantities((prev) => ({ ...prev, [line.position]: q }));
                }}
              />
            ))}
          </fieldset>
        ) : (
          <Field
            label={s.amount(invoice.currency)}
            name="amount"
            inputMode="decimal"
            autoComplete="off"
            value={amountText}
            onChange={(e) => setAmountText(e.currentTarget.value)}
            hint={s.amountHint(left !== undefined ? money(left) : '…')}
            error={amountError}
          />
        )}
        <Field
          label={s.reason}
          name="reason"
          maxLength={500}
          autoComplete="off"
          value={reason}
          onChange={(e) => setReason(e.currentTarget.value)}
          error={errors.fields.reason}
        />
        <section aria-labelledby={`${formId}-preview`} className="refund-preview" aria-live="polite">
          <h3 id={`${formId}-preview`}>{s.preview}</h3>
          {body === null ? <p className="muted">{s.nothing}</p> : null}
          {body !== null && (!current || preview.isFetching) ? <p className="muted">{s.previewLoading}</p> : null}
          {body !== null && preview.error && !errors.fields.amount_cents && !errors.fields.lines ? (
            <ProblemAlert problem={preview.error as ApiProblem} />
          ) : null}
          {body !== null && p && !preview.error ? (
            <>
              <p className="preview-amount">
                {s.leftBeforeAfter(money(p.left_before_cents), money(p.left_after_cents))}
              </p>
              <DocumentLines doc={p} caption={s.preview} />
            </>
          ) : null}
        </section>
      </form>
    </Dialog>
  );
}
