/** The order's accounting sync (Lexware): its state, and retry / cancel where the API allows them (orders/lexware-sync.ts). */
import type { ApiProblem } from '../../../../shared/api.js';
import { useFormat } from '../../../../shared/format.js';
import { useErrorMessage, useT } from '../../../../shared/i18n/index.js';
import { Dialog } from '../../../../shared/widgets/Dialog.js';
import { useLexwareSync } from '../lexware-sync.js';
import type { OrderDetail } from './lines.js';

export function AccountingSync({ order }: { order: OrderDetail }) {
  const t = useT();
  const f = useFormat();
  const message = useErrorMessage();
  const { allowed, query, sync, canRetry, canCancel, pending, setPending, run } = useLexwareSync(order.id, [
    '/api/admin/orders/{id}/timeline',
  ]);
  const path = { params: { path: { id: order.id } } };
  if (!allowed) return null;
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
