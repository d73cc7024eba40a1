/**
 * The state changes of an order (mark paid, fulfil, cancel): shown only to roles the API's x-roles
 * allow, each confirmed in a dialog that says what will happen. The server decides and enforces.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { $api, type ApiProblem } from '../../../../shared/api.js';
import { useCan } from '../../../../shared/auth.js';
import { useErrorMessage, useT } from '../../../../shared/i18n/index.js';
import { Dialog } from '../../../../shared/widgets/Dialog.js';
import { toast } from '../../../../shared/widgets/Toasts.js';
import type { OrderDetail } from './lines.js';

type Action = 'mark-paid' | 'fulfill' | 'cancel';

export function OrderActions({ order }: { order: OrderDetail }) {
  const t = useT();
  const can = useCan();
  const message = useErrorMessage();
  const queryClient = useQueryClient();
  const [pending, setPending] = useState<Action | null>(null);
  const options = {
    onSuccess: async () => {
      setPending(null);
      toast(t.order.done);
      await queryClient.invalidateQueries({ queryKey: ['get', '/api/admin/orders/{id}'] });
      await queryClient.invalidateQueries({ queryKey: ['get', '/api/admin/orders'] });
    },
    onError: (problem: ApiProblem) => {
      setPending(null);
      toast(message(problem.code), 'error');
    },
  };
  const markPaid = $api.useMutation('post', '/api/admin/orders/{id}/mark-paid', options);
  const fulfill = $api.useMutation('post', '/api/admin/orders/{id}/fulfill', options);
  const cancel = $api.useMutation('post', '/api/admin/orders/{id}/cancel', options);

  const actions = [
    {
      key: 'mark-paid' as const,
      label: t.order.markPaid,
      text: t.order.confirmMarkPaid,
      show: order.status === 'pending_payment' && can('POST /api/admin/orders/{id}/mark-paid'),
      run: markPaid,
    },
    {
      key: 'fulfill' as const,
      label: t.order.fulfill,
      text: t.order.confirmFulfill,
      show: order.status === 'paid' && can('POST /api/admin/orders/{id}/fulfill'),
      run: fulfill,
    },
    {
      key: 'cancel' as const,
      label: t.order.cancel,
      text: t.order.confirmCancel,
      danger: true,
      show: ['pending_payment', 'paid'].includes(order.status) && can('POST /api/admin/orders/{id}/cancel'),
      run: cancel,
    },
  ].filter((a) => a.show);
  if (actions.length === 0) return null;
  const open = actions.find((a) => a.key === pending);
  return (
    <section aria-label={t.order.actions} className="actions">
      {actions.map((a) => (
        <button key={a.key} type="button" className={a.danger ? 'danger' : undefined} onClick={() => setPending(a.key)}>
          {a.label}
        </button>
      ))}
      <Dialog
        open={open !== undefined}
        title={open?.label ?? ''}
        onClose={() => setPending(null)}
        confirm={
          open
            ? {
                label: open.label,
                danger: open.danger,
                busy: open.run.isPending,
                onConfirm: () => open.run.mutate({ params: { path: { id: order.id } } }),
              }
            : undefined
        }
      >
        <p>{open?.text}</p>
      </Dialog>
    </section>
  );
}
