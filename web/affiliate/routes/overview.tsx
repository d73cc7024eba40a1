/**
 * The affiliate's overview (GET /api/affiliate/me): the code, the referral link the API builds
 * (the shop's referral base, its default channel's domain or the built-in storefront, with
 * `?ref=<code>`; the storefront carries it into checkout as `affiliate_code`), the commission rate
 * and the balance per currency.
 */
import { portalText } from '../../portal/i18n.js';
import { PortalLink } from '../../portal/nav.js';
import { Balances, Loaded } from '../../portal/parts.js';
import { usePortalTitle } from '../../portal/shell.js';
import { $api } from '../../shared/api.js';
import { useFormat } from '../../shared/format.js';
import { useDictionary } from '../../shared/i18n/index.js';
import { toast } from '../../shared/widgets/Toasts.js';
import { affiliateText } from '../i18n.js';

export function OverviewPage() {
  const a = useDictionary(affiliateText);
  const s = useDictionary(portalText);
  const f = useFormat();
  usePortalTitle(a.overview.title);
  const query = $api.useQuery('get', '/api/affiliate/me');
  const copy = async (link: string) => {
    try {
      await navigator.clipboard.writeText(link);
      toast(a.overview.copied);
    } catch {
      toast(a.overview.copyFailed, 'error');
    }
  };
  return (
    <>
      <h1>{a.overview.title}</h1>
      <Loaded query={query}>
        {(me) => (
          <>
            <section className="panel" aria-labelledby="code-title">
              <h2 id="code-title">{a.overview.codeTitle}</h2>
              <p>
                {a.overview.code}: <span className="code">{me.code}</span>
              </p>
              <p>{a.overview.commission(f.percent(me.commission_percent / 100))}</p>
              {me.referral_link ? (
                <div className="share">
                  <div className="field">
                    <label htmlFor="referral-link">{a.overview.link}</label>
                    <span className="hint" id="referral-hint">
                      {a.overview.linkHint}
                    </span>
                    <input
                      id="referral-link"
                      type="url"
                      readOnly
                      value={me.referral_link}
                      aria-describedby="referral-hint"
                      onFocus={(e) => e.currentTarget.select()}
                    />
                  </div>
                  <button type="button" className="primary" onClick={() => copy(me.referral_link ?? '')}>
                    {a.overview.copy}
                  </button>
                </div>
              ) : (
                <p className="muted">{a.overview.noLink}</p>
              )}
            </section>
            <section className="panel" aria-labelledby="balance-title">
              <h2 id="balance-title">{s.balances}</h2>
              <Balances balances={me.balances} />
              {me.balances[0] ? (
                <p className="muted">{a.overview.minPayout(f.money(me.min_payout_cents, me.balances[0].currency))}</p>
              ) : null}
              <p>
                <PortalLink to="/payouts">{a.overview.toPayouts}</PortalLink>
              </p>
            </section>
          </>
        )}
      </Loaded>
    </>
  );
}
