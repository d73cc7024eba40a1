/**
 * Where the subscription e-mail's management link lands (/shop/konto/abo?token=…): the
 * subscription as GET /api/checkout/abo/:token shows it (plan, product, price, status, the paid
 * period's end) and, as the answer allows, `kuendigen` at the period end (confirmed in a dialog
 * that names the date it takes effect) or `fortsetzen` (withdrawing a scheduled cancellation):
 * POST /api/checkout/abo/:token/kuendigen | fortsetzen. The token in the path is the credential;
 * the page sends no key and needs no sign-in.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { type ApiProblem, idempotencyKey } from '../../../shared/api.js';
import { useFormat } from '../../../shared/format.js';
import { useDictionary, useT } from '../../../shared/i18n/index.js';
import { Dialog } from '../../../shared/widgets/Dialog.js';
import { ProblemAlert } from '../../../shared/widgets/ProblemAlert.js';
import { $store } from '../../api.js';
import { tokenSearch, useShopSearch } from '../../router.js';
import { ShopLink } from '../../shell.js';
import { accountText } from './i18n.js';

export function AboLinkPage() {
  const s = useDictionary(accountText);
  const { token } = useShopSearch(tokenSearch);
  return (
    <section aria-labelledby="abo-title" className="narrow">
      <h1 id="abo-title">{s.aboTitle}</h1>
      {token ? (
        <AboByToken token={token} />
      ) : (
        <p className="alert alert-error" role="alert">
          {s.aboNoToken}
        </p>
      )}
    </section>
  );
}

function AboByToken({ token }: { token: string }) {
  const s = useDictionary(accountText);
  const t = useT();
  const f = useFormat();
  const client = useQueryClient();
  const params = { params: { path: { token } } };
  const view = $store.useQuery('get', '/api/checkout/abo/{token}', params, { retry: false, staleTime: 0 });
  const kuendigen = $store.useMutation('post', '/api/checkout/abo/{token}/kuendigen');
  const fortsetzen = $store.useMutation('post', '/api/checkout/abo/{token}/fortsetzen');
  const [asking, setAsking] = useState(false);
  const [done, setDone] = useState<{ kind: 'kuendigt' | 'fortgesetzt'; date: string } | null>(null);
  // a retried click (a lost answer) replays the first one: one key per intended action
  const keys = useRef({ kuendigen: idempotencyKey(), fortsetzen: idempotencyKey() });

  if (view.isPending) return <p aria-live="polite">{t.common.loading}</p>;
  if (view.error) {
    return view.error.status === 404 ? (
      <p className="alert alert-error" role="alert">
        {s.aboNotFound}
      </p>
    ) : (
      <ProblemAlert problem={view.error} />
    );
  }
  const { abo, plan_name, product_name, kann_kuendigen, kann_fortsetzen } = view.data;
  const periodEnd = f.date(abo.current_period_end);
  const endsAt = f.date(abo.endet_am ?? abo.current_period_end);
  const statuses = t.shopAccount.aboStatuses as Record<string, string>;
  const problem = (kuendigen.error ?? fortsetzen.error) as ApiProblem | null;
  const update = (data: typeof view.data) => {
    client.setQueryData(['get', '/api/checkout/abo/{token}', params], data);
    void client.invalidateQueries({ queryKey: ['get', '/api/checkout/abo/{token}'] });
  };

  return (
    <>
      <p className="muted">{s.aboIntro}</p>
      <div aria-live="polite">
        {done ? (
          <p className="alert alert-info" role="status">
            {done.kind === 'kuendigt' ? s.kuendigt(f.date(done.date)) : s.fortgesetzt}
          </p>
        ) : null}
      </div>
      {problem ? <ProblemAlert problem={problem} /> : null}
      <dl className="panel facts">
        <dt>{s.plan}</dt>
        <dd>{plan_name}</dd>
        <dt>{s.product}</dt>
        <dd>{product_name}</dd>
        <dt>{s.price}</dt>
        <dd>
          {f.money(abo.next_charge_cents ?? abo.price_cents, abo.currency)}{' '}
          {t.shop.planInterval(abo.interval_count, abo.interval_unit)}
        </dd>
        <dt>{s.status}</dt>
        <dd>
          {abo.cancel_at_period_end ? s.cancelled : (statuses[abo.status] ?? abo.status)}
          {abo.status === 'canceled' ? ` – ${s.ended}` : ''}
        </dd>
        {abo.status === 'trialing' && abo.trial_end ? (
          <>
            <dt>{s.trialUntil}</dt>
            <dd>{f.date(abo.trial_end)}</dd>
          </>
        ) : null}
        <dt>{abo.cancel_at_period_end ? s.endsAt : s.periodEnd}</dt>
        <dd>{abo.cancel_at_period_end ? endsAt : periodEnd}</dd>
      </dl>
      <p className="actions-row start">
        {kann_kuendigen ? (
          <button type="button" className="button danger" onClick={() => setAsking(true)}>
            {s.kuendigen}
          </button>
        ) : null}
        {kann_fortsetzen ? (
          <button
            type="button"
            className="primary"
            disabled={fortsetzen.isPending}
            aria-describedby="fortsetzen-hint"
            onClick={() =>
              fortsetzen.mutate(
                { ...params, headers: { 'idempotency-key': keys.current.fortsetzen } },
                {
                  onSuccess: (data) => {
                    keys.current.fortsetzen = idempotencyKey();
                    setDone({ kind: 'fortgesetzt', date: data.abo.current_period_end });
                    update(data);
                  },
                },
              )
            }
          >
            {s.fortsetzen}
          </button>
        ) : null}
        <ShopLink to="/konto">{s.toAccount}</ShopLink>
      </p>
      {kann_fortsetzen ? (
        <p id="fortsetzen-hint" className="muted">
          {s.fortsetzenText}
        </p>
      ) : null}
      <Dialog
        open={asking}
        title={s.kuendigenTitle}
        onClose={() => setAsking(false)}
        confirm={{
          label: s.kuendigenConfirm(periodEnd),
          danger: true,
          busy: kuendigen.isPending,
          onConfirm: () =>
            kuendigen.mutate(
              { ...params, body: {}, headers: { 'idempotency-key': keys.current.kuendigen } },
              {
                onSuccess: (data) => {
                  keys.current.kuendigen = idempotencyKey();
                  setDone({ kind: 'kuendigt', date: data.abo.endet_am ?? data.abo.current_period_end });
                  update(data);
                },
                onSettled: () => setAsking(false),
              },
            ),
        }}
      >
        <p>{s.kuendigenText(periodEnd)}</p>
      </Dialog>
    </>
  );
}
