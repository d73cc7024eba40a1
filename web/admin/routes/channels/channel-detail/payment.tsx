/**
 * A channel's payment methods: its own selection, or (none chosen) the shop's, which then apply;
 * the shop's are named with a link to their screen (Einstellungen → Zahlungsarten).
 */
import { useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { FormEvent } from 'react';
import { $api, type ApiProblem } from '../../../../shared/api.js';
import { useCan } from '../../../../shared/auth.js';
import { fieldErrors } from '../../../../shared/forms.js';
import { useT } from '../../../../shared/i18n/index.js';
import { ProblemAlert } from '../../../../shared/widgets/ProblemAlert.js';
import { toast } from '../../../../shared/widgets/Toasts.js';
import { METHOD_CODES, type MethodCode } from '../reference.js';

export function PaymentMethods({ channelId }: { channelId: string }) {
  const t = useT();
  const can = useCan();
  const queryClient = useQueryClient();
  const path = { id: channelId };
  const query = $api.useQuery('get', '/api/admin/channels/{id}/payment-methods', { params: { path } });
  const save = $api.useMutation('put', '/api/admin/channels/{id}/payment-methods', {
    onSuccess: async () => {
      toast(t.channels.saved);
      await queryClient.invalidateQueries({ queryKey: ['get', '/api/admin/channels/{id}/payment-methods'] });
    },
  });
  const editable = can('PUT /api/admin/channels/{id}/payment-methods');
  const data = query.data;
  const label = (code: string) => (t.channels.methods as Record<string, string>)[code] ?? code;
  const problem = save.error as ApiProblem | null;
  const errors = fieldErrors(problem, ['method_codes'], t);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const codes = new FormData(event.currentTarget).getAll('method_codes') as MethodCode[];
    save.mutate({ params: { path }, body: { method_codes: codes } });
  };
  return (
    <section aria-labelledby="payment-h" className="panel">
      <h2 id="payment-h">{t.channels.paymentMethods}</h2>
      {query.error ? <ProblemAlert problem={query.error as ApiProblem} /> : null}
      {problem ? <ProblemAlert problem={problem} extra={errors.other} /> : null}
      {data ? (
        <>
          <p>
            {data.inherited ? (
              <>
                {t.channels.paymentInherited.before}
                <Link to="/settings/payment-methods">{t.channels.paymentInherited.link}</Link>
                {t.channels.paymentInherited.after(data.effective_method_codes.map(label).join(', '))}
              </>
            ) : (
              t.channels.paymentOwn
            )}
          </p>
          <form onSubmit={onSubmit} key={data.method_codes.join()}>
            <fieldset disabled={!editable}>
              <legend>{t.channels.paymentMethods}</legend>
              <p className="hint">{t.channels.paymentHint}</p>
              <div className="checks">
                {METHOD_CODES.map((code) => (
                  <div className="check" key={code}>
                    <input
                      type="checkbox"
                      id={`method-${code}`}
                      name="method_codes"
                      value={code}
                      defaultChecked={data.method_codes.includes(code)}
                    />
                    <label htmlFor={`method-${code}`}>{label(code)}</label>
                  </div>
                ))}
              </div>
              {errors.fields.method_codes ? <p className="field-error">{errors.fields.method_codes}</p> : null}
            </fieldset>
            {editable ? (
              <button type="submit" className="primary" disabled={save.isPending}>
                {t.channels.savePayment}
              </button>
            ) : null}
          </form>
        </>
      ) : null}
    </section>
  );
}
