/**
 * A draft invoice's edit dialog (buyer, business or consumer, buyer reference, note:
 * PATCH /api/admin/invoices/{id}; a 400 lands at its field) and its delete dialog (a draft only:
 * the order can be invoiced again). A final invoice is never changed: it is corrected by a credit note.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { $api, type ApiProblem } from '../../../../shared/api.js';
import { fieldErrors, formValues } from '../../../../shared/forms.js';
import { useDictionary, useT } from '../../../../shared/i18n/index.js';
import { Dialog } from '../../../../shared/widgets/Dialog.js';
import { Field } from '../../../../shared/widgets/Field.js';
import { ProblemAlert } from '../../../../shared/widgets/ProblemAlert.js';
import { toast } from '../../../../shared/widgets/Toasts.js';
import { financeText } from '../i18n.js';

type Invoice = NonNullable<ReturnType<typeof useInvoice>>;
const useInvoice = (id: string) => $api.useQuery('get', '/api/admin/invoices/{id}', { params: { path: { id } } }).data;

const BUYER_FIELDS = [
  'name',
  'company',
  'vat_id',
  'line1',
  'line2',
  'postal_code',
  'city',
  'country',
  'email',
] as const;
const FIELDS = ['buyer_reference', 'note', ...BUYER_FIELDS.map((f) => `buyer.${f}`)];

/** Empty text: null for the fields that may be cleared, left out for the others. */
const CLEARABLE = new Set(['company', 'vat_id', 'line2']);

export function EditDraftDialog({ invoice, open, onClose }: { invoice: Invoice; open: boolean; onClose: () => void }) {
  const t = useT();
  const s = useDictionary(financeText).draft;
  const queryClient = useQueryClient();
  const formRef = useRef<HTMLFormElement>(null);
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  useEffect(() => {
    if (open) setProblem(null);
  }, [open]);
  const save = $api.useMutation('patch', '/api/admin/invoices/{id}', {
    onSuccess: async () => {
      toast(s.saved);
      onClose();
      await queryClient.invalidateQueries({ queryKey: ['get', '/api/admin/invoices/{id}'] });
      await queryClient.invalidateQueries({ queryKey: ['get', '/api/admin/invoices/{id}/einvoice-check'] });
      await queryClient.invalidateQueries({ queryKey: ['get', '/api/admin/invoices'] });
    },
    onError: (p: ApiProblem) => setProblem(p),
  });
  const errors = fieldErrors(problem, FIELDS, t);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const v = formValues(event.currentTarget);
    const text = (key: string) => (v[key] ?? '').trim();
    const buyer: Record<string, string | null> = {};
    for (const f of BUYER_FIELDS) {
      const value = text(`buyer.${f}`);
      const was = (invoice.buyer as Record<string, string | null | undefined>)[f] ?? '';
      if (value === was) continue;
      if (value === '' && !CLEARABLE.has(f)) continue;
      buyer[f] = value === '' ? null : f === 'country' ? value.toUpperCase() : value;
    }
    const body = {
      is_business: v.is_business === 'on',
      buyer_reference: text('buyer_reference') || null,
      note: text('note') || null,
      ...(Object.keys(buyer).length > 0 ? { buyer } : {}),
    };
    setProblem(null);
    save.mutate({ params: { path: { id: invoice.id } }, body });
  };
  const b = invoice.buyer as Record<string, string | null | undefined>;
  const label: Record<(typeof BUYER_FIELDS)[number], string> = s.buyer;
  return (
    <Dialog
      open={open}
      title={s.editTitle}
      onClose={onClose}
      confirm={{ label: s.save, busy: save.isPending, onConfirm: () => formRef.current?.requestSubmit() }}
    >
      <form ref={formRef} onSubmit={onSubmit} noValidate key={`${String(open)}-${invoice.updated_at}`}>
        {problem && !problem.errors?.length ? <ProblemAlert problem={problem} /> : null}
        {errors.other.length > 0 ? <ProblemAlert problem={problem as ApiProblem} /> : null}
        <p>{s.editText}</p>
        <div className="check">
          <input id="draft-business" type="checkbox" name="is_business" defaultChecked={invoice.is_business} />
          <label htmlFor="draft-business">{s.business}</label>
        </div>
        <fieldset>
          <legend>{s.buyerLegend}</legend>
          {BUYER_FIELDS.map((f) => (
            <Field
              key={f}
              label={label[f]}
              name={`buyer.${f}`}
              type={f === 'email' ? 'email' : 'text'}
              autoComplete="off"
              defaultValue={b[f] ?? ''}
              maxLength={f === 'country' ? 2 : f === 'vat_id' ? 20 : 200}
              error={errors.fields[`buyer.${f}`]}
            />
          ))}
        </fieldset>
        <Field
          label={s.buyerReference}
          name="buyer_reference"
          hint={s.buyerReferenceHint}
          autoComplete="off"
          maxLength={200}
          defaultValue={invoice.buyer_reference ?? ''}
          error={errors.fields.buyer_reference}
        />
        <div className="field">
          <label htmlFor={`draft-note-${invoice.id}`}>{s.note}</label>
          <textarea
            id={`draft-note-${invoice.id}`}
            name="note"
            rows={3}
            maxLength={1000}
            defaultValue={invoice.note ?? ''}
            aria-invalid={errors.fields.note ? true : undefined}
          />
          {errors.fields.note ? <span className="field-error">{errors.fields.note}</span> : null}
        </div>
      </form>
    </Dialog>
  );
}

export function DeleteDraftDialog({
  invoice,
  open,
  onClose,
}: {
  invoice: Invoice;
  open: boolean;
  onClose: () => void;
}) {
  const s = useDictionary(financeText).draft;
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  useEffect(() => {
    if (open) setProblem(null);
  }, [open]);
  const remove = $api.useMutation('delete', '/api/admin/invoices/{id}', {
    onSuccess: async () => {
      toast(s.deleted(invoice.order_number));
      onClose();
      await queryClient.invalidateQueries({ queryKey: ['get', '/api/admin/invoices'] });
      await queryClient.invalidateQueries({ queryKey: ['get', '/api/admin/orders/{id}'] });
      await navigate({ to: '/finance/invoices', search: { page: 1, limit: 25 } });
    },
    onError: (p: ApiProblem) => setProblem(p),
  });
  return (
    <Dialog
      open={open}
      title={s.deleteTitle}
      onClose={onClose}
      confirm={{
        label: s.delete,
        danger: true,
        busy: remove.isPending,
        onConfirm: () => remove.mutate({ params: { path: { id: invoice.id } } }),
      }}
    >
      {problem ? <ProblemAlert problem={problem} /> : null}
      <p>{s.deleteText(invoice.order_number)}</p>
    </Dialog>
  );
}
