/**
 * The affiliate's payouts: request one of the available balance (POST /api/affiliate/payouts/request,
 * said in a dialog first; the server checks the minimum and that no request is open) and the
 * payouts so far (GET /api/affiliate/payouts, paged on the server).
 */
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { portalText } from '../../portal/i18n.js';
import { usePortalSearch } from '../../portal/nav.js';
import { Loaded, PayoutTable, UrlPager } from '../../portal/parts.js';
import { usePortalTitle } from '../../portal/shell.js';
import { $api, type ApiProblem } from '../../shared/api.js';
import { useFormat } from '../../shared/format.js';
import { useDictionary } from '../../shared/i18n/index.js';
import { serverPaging } from '../../shared/list.js';
import { Dialog } from '../../shared/widgets/Dialog.js';
import { ProblemAlert } from '../../shared/widgets/ProblemAlert.js';
import { toast } from '../../shared/widgets/Toasts.js';
import { affiliateText } from '../i18n.js';
import { payoutSearch } from '../search.js';

function RequestPayout() {
  const a = useDictionary(affiliateText);
  const f = useFormat();
  const queryClient = useQueryClient();
  const me = $api.useQuery('get', '/api/affiliate/me');
  const request = $api.useMutation('post', '/api/affiliate/payouts/request');
  const [asking, setAsking] = useState<{ currency: string; cents: number } | null>(null);
  const problem = request.error as ApiProblem | null;
  const submit = () => {
    if (!asking) return;
    request.mutate(
      // no Idempotency-Key: the API allows one open request at a time (409 payout_open)
      { body: { currency: asking.currency } },
      {
        onSuccess: () => {
          toast(a.payouts.requested);
          void queryClient.invalidateQueries();
        },
        onSettled: () => setAsking(null),
      },
    );
  };
  return (
    <section className="panel" aria-labelledby="request-title">
      <h2 id="request-title">{a.payouts.requestTitle}</h2>
      <Loaded query={me}>
        {(m) => {
          const open = m.balances.filter((b) => b.available_cents > 0);
          const min = (currency: string) => f.money(m.min_payout_cents, currency);
          return (
            <>
              {problem ? (
                problem.code === 'below_minimum' ? (
                  <p className="alert alert-error" role="alert">
                    {a.payouts.belowMinimum(min(m.balances[0]?.currency ?? 'EUR'))}
                  </p>
                ) : (
                  <ProblemAlert problem={problem} />
                )
              ) : null}
              {open.length === 0 ? <p className="muted">{a.payouts.nothing}</p> : null}
              {open.map((b) => (
                <p key={b.currency}>
                  {a.payouts.available(f.money(b.available_cents, b.currency))}{' '}
                  <button
                    type="button"
                    className="primary"
                    onClick={() => {
                      request.reset();
                      setAsking({ currency: b.currency, cents: b.available_cents });
                    }}
                  >
                    {a.payouts.request(f.money(b.available_cents, b.currency))}
                  </button>
                </p>
              ))}
              {m.balances[0] ? (
                <p className="muted small">{a.payouts.belowMinimum(min(m.balances[0].currency))}</p>
              ) : null}
            </>
          );
        }}
      </Loaded>
      <Dialog
        open={asking !== null}
        title={a.payouts.confirmTitle}
        onClose={() => setAsking(null)}
        confirm={{ label: a.payouts.confirm, onConfirm: submit, busy: request.isPending }}
      >
        <p>{asking ? a.payouts.confirmBody(f.money(asking.cents, asking.currency)) : null}</p>
      </Dialog>
    </section>
  );
}

export function PayoutsPage() {
  const a = useDictionary(affiliateText);
  const s = useDictionary(portalText);
  usePortalTitle(a.payouts.title);
  const search = usePortalSearch(payoutSearch);
  const query = $api.useQuery('get', '/api/affiliate/payouts', { params: { query: serverPaging(search) } });
  return (
    <>
      <h1>{a.payouts.title}</h1>
      <p className="muted">{a.payouts.intro}</p>
      <RequestPayout />
      <h2 id="payouts-title">{a.payouts.history}</h2>
      <Loaded query={query}>
        {(d) =>
          d.payouts.length === 0 ? (
            <p>{s.empty}</p>
          ) : (
            <>
              <PayoutTable payouts={d.payouts} labelledBy="payouts-title" />
              <UrlPager count={d.count} search={search} />
            </>
          )
        }
      </Loaded>
    </>
  );
}
