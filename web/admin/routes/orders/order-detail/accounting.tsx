/** The order's accounting sync (Lexware): its state, and retry / cancel where the API allows them. */
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { $api, type ApiProblem } from '../../../../shared/api.js';
import { useCan } from '../../../../shared/auth.js';
import { useFormat } from '../../../../shared/format.js';
import { useErrorMessage, useT } from '../../../../shared/i18n/index.js';
import { Dialog } from '../../../../shared/widgets/Dialog.js';
import { toast } from '../../../../shared/widgets/Toasts.js';
import type { OrderDetail } from './lines.js';

export function AccountingSync({ order }: { order: OrderDetail }) {
  const t = useT();
  const f = useFormat();
  const can = useCan();
  const message = useErrorMessage();
  const queryClient = useQueryClient();
  const [pending, setPending] = useState<'retry' | 'cancel' | null>(null);
  const allowed = can('GET /api/admin/orders/{id}/lexware');
  const path = { params: { path: { id: order.id } } };
  const query = $api.useQuery('get', '/api/admin/orders/{id}/lexware', path, { enabled: allowed });
  const options = {
    onSuccess: async () => {
      setPending(null);
      toast(t.order.done);
      await queryClient.invalidateQueries({ queryKey: ['get', '/api/admin/orders/{id}/lexware'] });
      await queryClient.invalidateQueries({ queryKey: ['get', '/api/admin/orders/{id}/timeline'] });
    },
    onError: (p: ApiProblem) => {
      setPending(null);
      toast(message(p.code), 'error');
    },
  };
  const retry = $api.useMutation('post', '/api/admin/orders/{id}/lexware-retry', options);
  const cancel = $api.useMutation('post', '/api/admin/orders/{id}/lexware-cancel', options);
  if (!allowed) return null;
  const sync = query.data;
  const canRetry =
    sync &&
    (sync.status === 'failed' || sync.status === 'cancelled') &&
    can('POST /api/admin/orders/{id}/lexware-retry');
  const canCancel =
    sync &&
    (sync.status === 'pending' || sync.status === 'failed') &&
    can('POST /api/admin/orders/{id}/lexware-cancel');
  const run = pending === 'retry' ? retry : cancel;
  return (
    <section aria-labelledby="acc-h" className="panel">
      <h2 id="acc-h">{t.orderOps.accounting}</h2>
      {query.isPending ? <p className="muted">{t.common.loading}</p> : null}
      {query.error ? <p className="muted">{message((query.error as ApiProblem).code)}</p> : null}
      {sync ? (
        <>
          <dl className="facts">
            <dt>{t.orders.status}</dt>
            <dd>
              {t.orderOps.syncStatus[sync.status]}
              {sync.attempts > 0 ? <span className="muted"> · {t.orderOps.attempts(sync.attempts)}</span> : null}
            </dd>
            {sync.synced_at ? (
              <>
                <dt>{t.orderOps.syncStatus.synced}</dt>
                <dd>
                  {f.dateTime(sync.synced_at)}
                  {sync.provider_id ? <span className="muted"> · {sync.provider_id}</span> : null}
                </dd>
              </>
            ) : null}
            {sync.last_error ? (
              <>
                <dt>{t.orderOps.lastError}</dt>
                <dd>{sync.last_error}</dd>
              </>
            ) : null}
          </dl>
          {canRetry || canCancel ? (
            <div className="actions">
              {canRetry ? (
                <button type="button" onClick={() => setPending('retry')}>
                  {t.orderOps.retrySync}
                </button>
              ) : null}
              {canCancel ? (
                <button type="button" onClick={() => setPending('cancel')}>
                  {t.orderOps.cancelSync}
                </button>
              ) : null}
            </div>
          ) : null}
        </>
      ) : null}
      <Dialog
        open={pending !== null}
        title={pending === 'retry' ? t.orderOps.retrySync : t.orderOps.cancelSync}
        onClose={() => setPending(null)}
        confirm={{
          label: pending === 'retry' ? t.orderOps.retrySync : t.orderOps.cancelSync,
          busy: run.isPending,
          onConfirm: () => run.mutate(path),
        }}
      >
        <p>{pending === 'retry' ? t.orderOps.confirmRetrySync : t.orderOps.confirmCancelSync}</p>
      </Dialog>
    </section>
  );
}
