/**
 * The invoice's finalize dialog (the number it will take, from the server's preview, and that it
 * cannot be undone; or why it would be refused) and its send-by-e-mail dialog.
 */
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { $api, type ApiProblem } from '../../../../shared/api.js';
import { useFormat } from '../../../../shared/format.js';
import { fieldErrors, formValues } from '../../../../shared/forms.js';
import { useDictionary, useErrorMessage, useT } from '../../../../shared/i18n/index.js';
import { Dialog } from '../../../../shared/widgets/Dialog.js';
import { Field } from '../../../../shared/widgets/Field.js';
import { ProblemAlert } from '../../../../shared/widgets/ProblemAlert.js';
import { toast } from '../../../../shared/widgets/Toasts.js';
import { financeText } from '../i18n.js';

const refreshKeys = [
  '/api/admin/invoices/{id}',
  '/api/admin/invoices',
  '/api/admin/invoices/{id}/einvoice-check',
  '/api/admin/orders/{id}/lexware',
  '/api/admin/orders/{id}/timeline',
];

export function FinalizeDialog({ id, open, onClose }: { id: string; open: boolean; onClose: () => void }) {
  const s = useDictionary(financeText).finalize;
  const f = useFormat();
  const message = useErrorMessage();
  const queryClient = useQueryClient();
  const preview = $api.useQuery(
    'get',
    '/api/admin/invoices/{id}/finalize-preview',
    { params: { path: { id } } },
    { enabled: open, staleTime: 0, gcTime: 0, retry: false },
  );
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  useEffect(() => {
    if (open) setProblem(null);
  }, [open]);
  const finalize = $api.useMutation('post', '/api/admin/invoices/{id}/finalize', {
    onSuccess: async (invoice) => {
      toast(s.done(invoice.number ?? ''));
      onClose();
      for (const k of refreshKeys) await queryClient.invalidateQueries({ queryKey: ['get', k] });
    },
    onError: (p: ApiProblem) => setProblem(p),
  });
  const p = preview.data;
  return (
    <Dialog
      open={open}
      title={s.title}
      onClose={onClose}
      confirm={
        p?.can_finalize
          ? {
              label: s.confirm(p.number),
              danger: true,
              busy: finalize.isPending,
              onConfirm: () => finalize.mutate({ params: { path: { id } } }),
            }
          : undefined
      }
    >
      {problem ? <ProblemAlert problem={problem} /> : null}
      {preview.isPending && open ? <p className="muted">{s.loading}</p> : null}
      {preview.error ? <ProblemAlert problem={preview.error as ApiProblem} /> : null}
      {p ? (
        p.can_finalize ? (
          <>
            <p className="preview-amount">{s.willTake(p.number)}</p>
            <p>{s.dates(f.date(p.issue_date), p.due_date ? f.date(p.due_date) : null)}</p>
            <p>
              <strong>{s.irreversible}</strong>
            </p>
            <p className="muted small">{s.maybeNext}</p>
          </>
        ) : (
          <div className="alert alert-warning">
            <p>
              {s.blocked} {p.blocker ? message(p.blocker.code as ApiProblem['code']) : ''}
            </p>
            <ul>
              {(p.blocker?.errors ?? []).map((e) => (
                <li key={e.path}>
                  <code>{e.path.split('/').pop()}</code>: {e.message}
                </li>
              ))}
            </ul>
          </div>
        )
      ) : null}
    </Dialog>
  );
}

export function SendDialog({
  id,
  buyerEmail,
  open,
  onClose,
}: {
  id: string;
  buyerEmail: string;
  open: boolean;
  onClose: () => void;
}) {
  const t = useT();
  const s = useDictionary(financeText).send;
  const queryClient = useQueryClient();
  const formRef = useRef<HTMLFormElement>(null);
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  useEffect(() => {
    if (open) setProblem(null);
  }, [open]);
  const send = $api.useMutation('post', '/api/admin/invoices/{id}/send-email', {
    onSuccess: async (r) => {
      toast(s.done(r.to));
      onClose();
      for (const k of refreshKeys) await queryClient.invalidateQueries({ queryKey: ['get', k] });
    },
    onError: (p: ApiProblem) => setProblem(p),
  });
  const errors = fieldErrors(problem, ['to', 'subject', 'message'], t);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const v = formValues(event.currentTarget);
    const body = {
      ...(v.to?.trim() ? { to: v.to.trim() } : {}),
      ...(v.subject?.trim() ? { subject: v.subject.trim() } : {}),
      ...(v.message?.trim() ? { message: v.message.trim() } : {}),
    };
    setProblem(null);
    send.mutate({ params: { path: { id } }, body });
  };
  return (
    <Dialog
      open={open}
      title={s.title}
      onClose={onClose}
      confirm={{ label: s.confirm, busy: send.isPending, onConfirm: () => formRef.current?.requestSubmit() }}
    >
      <form ref={formRef} onSubmit={onSubmit} noValidate key={String(open)}>
        {problem && !problem.errors?.length ? <ProblemAlert problem={problem} /> : null}
        <p>{s.text}</p>
        <Field
          label={s.to}
          name="to"
          type="email"
          autoComplete="off"
          placeholder={buyerEmail}
          hint={s.toHint}
          error={errors.fields.to}
        />
        <Field label={s.subject} name="subject" maxLength={200} autoComplete="off" error={errors.fields.subject} />
        <div className="field">
          <label htmlFor={`send-message-${id}`}>{s.message}</label>
          <textarea id={`send-message-${id}`} name="message" rows={4} maxLength={5000} />
        </div>
      </form>
    </Dialog>
  );
}
