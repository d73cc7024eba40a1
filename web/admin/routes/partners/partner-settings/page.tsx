/**
 * Partner settings (GET/PUT /api/admin/settings/partners): the vendors' and affiliates' hold
 * periods, the minimum an affiliate needs to request a payout, the base of referral links. A 400
 * lands at its field; who may not change them (useCan) sees them read-only.
 */
import type { FormEvent } from 'react';
import { $api, type ApiProblem } from '../../../../shared/api.js';
import { useCan } from '../../../../shared/auth.js';
import { useFormat } from '../../../../shared/format.js';
import { fieldErrors, formValues } from '../../../../shared/forms.js';
import { useDictionary, useErrorMessage, useT } from '../../../../shared/i18n/index.js';
import { Field } from '../../../../shared/widgets/Field.js';
import { ProblemAlert } from '../../../../shared/widgets/ProblemAlert.js';
import { toast } from '../../../../shared/widgets/Toasts.js';
import { useTitle } from '../../../shell.js';
import { partnersText } from '../i18n.js';
import { numberFieldError, toCents, useRefreshPartners } from '../shared.js';

const FIELDS = ['vendor_hold_days', 'affiliate_hold_days', 'affiliate_min_payout_cents', 'referral_base_url'] as const;

/** A typed whole number; empty or not a number → NaN, which the API refuses at the field. */
const wholeNumber = (text: string | undefined) => {
  const raw = (text ?? '').trim();
  return raw === '' ? Number.NaN : Number(raw);
};

export function PartnerSettingsPage() {
  const s = useDictionary(partnersText).settings;
  const t = useT();
  const f = useFormat();
  const can = useCan();
  const message = useErrorMessage();
  useTitle(s.title);
  const readable = can('GET /api/admin/settings/partners');
  const editable = can('PUT /api/admin/settings/partners');
  const refresh = useRefreshPartners();
  const query = $api.useQuery('get', '/api/admin/settings/partners', {}, { enabled: readable });
  const save = $api.useMutation('put', '/api/admin/settings/partners', {
    onSuccess: async () => {
      toast(s.saved);
      await query.refetch();
      // the hold periods show in the earnings' release dialogs
      await refresh();
    },
  });
  const problem = save.error as ApiProblem | null;
  const errors = fieldErrors(problem, FIELDS, t);
  if (!readable) {
    return (
      <div className="page">
        <h1>{s.title}</h1>
        <div className="alert alert-error" role="alert">
          <p>{message('role_denied')}</p>
        </div>
      </div>
    );
  }
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const v = formValues(event.currentTarget);
    const base = v.referral_base_url?.trim() ?? '';
    save.mutate({
      body: {
        vendor_hold_days: wholeNumber(v.vendor_hold_days),
        affiliate_hold_days: wholeNumber(v.affiliate_hold_days),
        affiliate_min_payout_cents: toCents(v.affiliate_min_payout) ?? Number.NaN,
        referral_base_url: base === '' ? null : base,
      },
    });
  };
  const data = query.data;
  // cents as the units typed back (12,50 or 12.50, the page's decimal sign); no currency: it is per currency
  const units = (cents: number) => (cents / 100).toFixed(2).replace('.', f.number(1.5).charAt(1));
  return (
    <div className="page narrow-form partner-settings">
      <div className="page-head">
        <h1>{s.title}</h1>
      </div>
      <p className="muted">{s.intro}</p>
      {query.error ? <ProblemAlert problem={query.error as ApiProblem} /> : null}
      {data ? (
        <section aria-labelledby="partner-settings-h" className="panel">
          <h2 id="partner-settings-h" className="visually-hidden">
            {s.title}
          </h2>
          {!editable ? <p className="muted">{s.readOnly}</p> : null}
          {problem && errors.other.length > 0 ? <ProblemAlert problem={problem} extra={errors.other} /> : null}
          {problem && !problem.errors?.length ? <ProblemAlert problem={problem} /> : null}
          <form onSubmit={onSubmit} noValidate key={data.updated_at ?? 'defaults'}>
            <fieldset disabled={!editable} className="plain">
              <legend className="visually-hidden">{s.title}</legend>
              <Field
                label={s.vendorHold}
                name="vendor_hold_days"
                type="number"
                min={0}
                max={365}
                step={1}
                className="short"
                required
                defaultValue={data.vendor_hold_days}
                hint={s.holdHint}
                error={numberFieldError(errors.fields.vendor_hold_days, s.daysInvalid)}
              />
              <Field
                label={s.affiliateHold}
                name="affiliate_hold_days"
                type="number"
                min={0}
                max={365}
                step={1}
                className="short"
                required
                defaultValue={data.affiliate_hold_days}
                hint={s.holdHint}
                error={numberFieldError(errors.fields.affiliate_hold_days, s.daysInvalid)}
              />
              <Field
                label={s.minPayout}
                name="affiliate_min_payout"
                inputMode="decimal"
                autoComplete="off"
                className="short"
                required
                defaultValue={units(data.affiliate_min_payout_cents)}
                hint={s.minPayoutHint}
                error={numberFieldError(errors.fields.affiliate_min_payout_cents, s.amountInvalid)}
              />
              <Field
                label={s.referralBase}
                name="referral_base_url"
                type="url"
                maxLength={2000}
                autoComplete="off"
                defaultValue={data.referral_base_url ?? ''}
                hint={s.referralHint}
                error={errors.fields.referral_base_url ? s.urlInvalid : undefined}
              />
              {editable ? (
                <button type="submit" className="primary" disabled={save.isPending}>
                  {s.save}
                </button>
              ) : null}
            </fieldset>
          </form>
          <p className="muted small">{data.updated_at ? s.updated(f.dateTime(data.updated_at)) : s.defaults}</p>
        </section>
      ) : query.isPending ? (
        <p className="muted">{t.common.loading}</p>
      ) : null}
    </div>
  );
}
