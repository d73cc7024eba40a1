/**
 * An account's actions: suspend or restore sign-in (each confirmed in a dialog that says what
 * happens), resend the verification e-mail, and the GDPR export as a download. Shown only to
 * roles the API's x-roles allow; the server decides and enforces.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { $api, type ApiProblem } from '../../../../shared/api.js';
import { useCan, useChannelScope } from '../../../../shared/auth.js';
import { useDictionary, useErrorMessage } from '../../../../shared/i18n/index.js';
import { Dialog } from '../../../../shared/widgets/Dialog.js';
import { toast } from '../../../../shared/widgets/Toasts.js';
import { customersText } from '../i18n.js';

interface Account {
  id: string;
  email: string;
  email_verified: boolean;
  suspended: boolean;
}

export function CustomerActions({ customer }: { customer: Account }) {
  const s = useDictionary(customersText);
  const can = useCan();
  const scope = useChannelScope();
  const message = useErrorMessage();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: ['get', '/api/admin/customers/{id}'] });
    await queryClient.invalidateQueries({ queryKey: ['get', '/api/admin/customers'] });
  };
  const onError = (problem: ApiProblem) => {
    setConfirming(false);
    toast(message(problem.code), 'error');
  };
  const suspend = $api.useMutation('post', '/api/admin/customers/{id}/suspend', {
    onSuccess: async () => {
      setConfirming(false);
      toast(s.suspendedDone);
      await refresh();
    },
    onError,
  });
  const restore = $api.useMutation('post', '/api/admin/customers/{id}/restore', {
    onSuccess: async () => {
      setConfirming(false);
      toast(s.restoredDone);
      await refresh();
    },
    onError,
  });
  const resend = $api.useMutation('post', '/api/admin/customers/{id}/resend-verification', {
    onSuccess: () => toast(s.resent),
    onError,
  });
  const path = { params: { path: { id: customer.id } } };
  const canSuspend = can('POST /api/admin/customers/{id}/suspend');
  const canRestore = can('POST /api/admin/customers/{id}/restore');
  const canResend = can('POST /api/admin/customers/{id}/resend-verification');
  const canExport = can('GET /api/admin/customers/{id}/export');
  const toggle = customer.suspended
    ? canRestore
      ? { label: s.restore, text: s.confirmRestore(customer.email), run: restore, danger: false }
      : null
    : canSuspend
      ? { label: s.suspend, text: s.confirmSuspend(customer.email), run: suspend, danger: true }
      : null;
  const showResend = canResend && !customer.email_verified;
  if (!toggle && !showResend && !canExport) return null;
  return (
    <section aria-label={s.actions} className="actions customer-actions">
      {toggle ? (
        <button type="button" className={toggle.danger ? 'danger' : undefined} onClick={() => setConfirming(true)}>
          {toggle.label}
        </button>
      ) : null}
      {showResend ? (
        <button
          type="button"
          disabled={resend.isPending}
          aria-busy={resend.isPending || undefined}
          onClick={() => resend.mutate(path)}
        >
          {s.resend}
        </button>
      ) : null}
      {canExport ? (
        <a
          className="button"
          href={`/api/admin/customers/${encodeURIComponent(customer.id)}/export`}
          download={`customer-${customer.id}.json`}
          aria-describedby="customer-export-hint"
        >
          {s.exportJson}
        </a>
      ) : null}
      {canExport ? (
        <p className="muted small block" id="customer-export-hint">
          {s.exportHint}
          {scope ? ` ${s.restrictedExport}` : ''}
        </p>
      ) : null}
      {toggle ? (
        <Dialog
          open={confirming}
          title={toggle.label}
          onClose={() => setConfirming(false)}
          confirm={{
            label: toggle.label,
            danger: toggle.danger,
            busy: toggle.run.isPending,
            onConfirm: () => toggle.run.mutate(path),
          }}
        >
          <p>{toggle.text}</p>
        </Dialog>
      ) : null}
    </section>
  );
}
