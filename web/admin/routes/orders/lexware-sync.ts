/**
 * An order's Lexware sync as the order page and the invoice page show it: the state
 * (GET /api/admin/orders/{id}/lexware), retry and cancel, and which of them the state and the role
 * allow. Each page renders it its own way; the rules and calls are here once.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { $api, type ApiProblem } from '../../../shared/api.js';
import { useCan } from '../../../shared/auth.js';
import { useErrorMessage, useT } from '../../../shared/i18n/index.js';
import { toast } from '../../../shared/widgets/Toasts.js';

/** `refresh`: the further queries a change makes stale (the sync itself always is). */
export function useLexwareSync(orderId: string, refresh: string[]) {
  const t = useT();
  const can = useCan();
  const message = useErrorMessage();
  const queryClient = useQueryClient();
  const [pending, setPending] = useState<'retry' | 'cancel' | null>(null);
  const allowed = can('GET /api/admin/orders/{id}/lexware');
  const query = $api.useQuery(
    'get',
    '/api/admin/orders/{id}/lexware',
    { params: { path: { id: orderId } } },
    {
      enabled: allowed,
    },
  );
  const options = {
    onSuccess: async () => {
      setPending(null);
      toast(t.order.done);
      for (const key of ['/api/admin/orders/{id}/lexware', ...refresh]) {
        await queryClient.invalidateQueries({ queryKey: ['get', key] });
      }
    },
    onError: (p: ApiProblem) => {
      setPending(null);
      toast(message(p.code), 'error');
    },
  };
  const retry = $api.useMutation('post', '/api/admin/orders/{id}/lexware-retry', options);
  const cancel = $api.useMutation('post', '/api/admin/orders/{id}/lexware-cancel', options);
  const sync = query.data;
  const canRetry = Boolean(
    sync &&
      (sync.status === 'failed' || sync.status === 'cancelled') &&
      can('POST /api/admin/orders/{id}/lexware-retry'),
  );
  const canCancel = Boolean(
    sync &&
      (sync.status === 'pending' || sync.status === 'failed') &&
      can('POST /api/admin/orders/{id}/lexware-cancel'),
  );
  return {
    allowed,
    query,
    sync,
    canRetry,
    canCancel,
    pending,
    setPending,
    /** The call the open dialog confirms. */
    run: pending === 'retry' ? retry : cancel,
  };
}
