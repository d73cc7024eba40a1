/**
 * The shop's payment methods (GET/PUT /api/admin/settings/payment-methods): what every channel
 * without its own selection offers at checkout. A checkbox per method the API knows, named in the
 * page's language; the server's 400 (no method, an unknown one) lands at the group, any other
 * problem (e.g. a 409) above the form. Owner and admin change them; every other role reads the
 * methods offered as a sentence (no disabled checkboxes to squint at).
 */
import { useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { FormEvent } from 'react';
import { $api, type ApiProblem } from '../../../../shared/api.js';
import { useCan } from '../../../../shared/auth.js';
import { fieldErrors } from '../../../../shared/forms.js';
import { useDictionary, useT } from '../../../../shared/i18n/index.js';
import { ProblemAlert } from '../../../../shared/widgets/ProblemAlert.js';
import { toast } from '../../../../shared/widgets/Toasts.js';
import { useTitle } from '../../../shell.js';
import { METHOD_CODES, type MethodCode } from '../../channels/reference.js';
import { settingsText } from '../i18n.js';

export function PaymentMethodsSettingsPage() {
  const s = useDictionary(settingsText).payment;
  const t = useT();
  useTitle(s.title);
  const can = useCan();
  const queryClient = useQueryClient();
  const query = $api.useQuery('get', '/api/admin/settings/payment-methods');
  const editable = can('PUT /api/admin/settings/payment-methods');
  const save = $api.useMutation('put', '/api/admin/settings/payment-methods', {
    onSuccess: async () => {
      toast(s.saved);
      await Promise.all([
        query.refetch(),
        // channels without their own selection now show (and offer) these
        queryClient.invalidateQueries({ queryKey: ['get', '/api/admin/channels/{id}/payment-methods'] }),
      ]);
    },
  });
  const problem = save.error as ApiProblem | null;
  const errors = fieldErrors(problem, ['method_codes'], t);
  // the schema's "fewer than 1 items" in the page's words; any other message as the server wrote it
  const methodError = errors.fields.method_codes
    ? /fewer than/.test(errors.fields.method_codes)
      ? s.atLeastOne
      : errors.fields.method_codes
    : undefined;
  const label = (code: string) => (t.channels.methods as Record<string, string>)[code] ?? code;
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const codes = new FormData(event.currentTarget).getAll('method_codes') as MethodCode[];
    save.mutate({ body: { method_codes: codes } });
  };
  const data = query.data;
  return (
    <div className="page narrow-form">
      <div className="page-head">
        <h1>{s.title}</h1>
      </div>
      <p className="muted">{s.intro}</p>
      <p>
        {s.channels} <Link to="/channels">{s.channelsLink}</Link>
      </p>
      {query.error ? <ProblemAlert problem={query.error as ApiProblem} /> : null}
      {data ? (
        <section aria-labelledby="pay-methods-h" className="panel pay-methods">
          <h2 id="pay-methods-h">{s.legend}</h2>
          <p>{s.current(data.method_codes.map(label).join(', '))}</p>
          {!editable ? <p className="muted">{s.readOnly}</p> : null}
          {editable && problem ? <ProblemAlert problem={problem} extra={errors.other} /> : null}
          {editable ? (
            <form onSubmit={onSubmit} noValidate key={data.method_codes.join()}>
              <fieldset
                className="plain"
                aria-invalid={methodError ? true : undefined}
                aria-describedby={['pay-methods-hint', methodError ? 'pay-methods-error' : null]
                  .filter(Boolean)
                  .join(' ')}
              >
                <legend className="visually-hidden">{s.legend}</legend>
                <p className="hint small muted" id="pay-methods-hint">
                  {s.hint} {s.wallets}
                </p>
                <div className="checks">
                  {METHOD_CODES.map((code) => (
                    <div className="check" key={code}>
                      <input
                        type="checkbox"
                        id={`shop-method-${code}`}
                        name="method_codes"
                        value={code}
                        defaultChecked={data.method_codes.includes(code)}
                      />
                      <label htmlFor={`shop-method-${code}`}>{label(code)}</label>
                    </div>
                  ))}
                </div>
                {methodError ? (
                  <p className="field-error" id="pay-methods-error">
                    {methodError}
                  </p>
                ) : null}
              </fieldset>
              <button type="submit" className="primary" disabled={save.isPending}>
                {s.save}
              </button>
            </form>
          ) : null}
        </section>
      ) : query.isPending ? (
        <p className="muted">{t.common.loading}</p>
      ) : null}
    </div>
  );
}
