/** The domains mapped to a channel: add (409 domain_taken at the field) and remove (said first). */
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { $api, type ApiProblem } from '../../../../shared/api.js';
import { useCan } from '../../../../shared/auth.js';
import { fieldErrors, formValues } from '../../../../shared/forms.js';
import { useErrorMessage, useT } from '../../../../shared/i18n/index.js';
import { Dialog } from '../../../../shared/widgets/Dialog.js';
import { Field } from '../../../../shared/widgets/Field.js';
import { ProblemAlert } from '../../../../shared/widgets/ProblemAlert.js';
import { toast } from '../../../../shared/widgets/Toasts.js';

export function Domains({ channelId }: { channelId: string }) {
  const t = useT();
  const can = useCan();
  const message = useErrorMessage();
  const queryClient = useQueryClient();
  const formRef = useRef<HTMLFormElement>(null);
  const [removing, setRemoving] = useState<{ id: string; domain: string } | null>(null);
  const path = { id: channelId };
  const query = $api.useQuery('get', '/api/admin/channels/{id}/domains', { params: { path } });
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: ['get', '/api/admin/channels/{id}/domains'] });
    await queryClient.invalidateQueries({ queryKey: ['get', '/api/admin/channels'] });
  };
  const add = $api.useMutation('post', '/api/admin/channels/{id}/domains', {
    onSuccess: async () => {
      formRef.current?.reset();
      toast(t.channels.domainAdded);
      await refresh();
    },
  });
  const remove = $api.useMutation('delete', '/api/admin/channels/{id}/domains/{domainId}', {
    onSuccess: async () => {
      setRemoving(null);
      toast(t.channels.domainRemoved);
      await refresh();
    },
    onError: (problem: ApiProblem) => {
      setRemoving(null);
      toast(message(problem.code), 'error');
    },
  });
  const problem = add.error as ApiProblem | null;
  const errors = fieldErrors(problem, ['domain'], t);
  if (problem?.code === 'domain_taken') errors.fields.domain = message('domain_taken');
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    add.mutate({ params: { path }, body: { domain: formValues(event.currentTarget).domain?.trim() ?? '' } });
  };
  const canRemove = can('DELETE /api/admin/channels/{id}/domains/{domainId}');
  const domains = query.data?.domains ?? [];
  return (
    <section aria-labelledby="domains-h" className="panel">
      <h2 id="domains-h">{t.channels.domainsTitle}</h2>
      {query.error ? <ProblemAlert problem={query.error as ApiProblem} /> : null}
      {query.data && domains.length === 0 ? <p className="muted">{t.channels.noDomains}</p> : null}
      {domains.length > 0 ? (
        <ul className="plain-list">
          {domains.map((d) => (
            <li key={d.id}>
              <span className="mono">{d.domain}</span>
              {canRemove ? (
                <button
                  type="button"
                  className="small-button"
                  aria-label={t.channels.removeDomain(d.domain)}
                  onClick={() => setRemoving({ id: d.id, domain: d.domain })}
                >
                  {t.channels.remove}
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      {can('POST /api/admin/channels/{id}/domains') ? (
        <form ref={formRef} onSubmit={onSubmit} className="inline-form" noValidate>
          <Field
            label={t.channels.domain}
            name="domain"
            hint={t.channels.domainHint}
            required
            maxLength={300}
            autoComplete="off"
            error={errors.fields.domain ?? (problem && errors.other.length === 0 ? message(problem.code) : undefined)}
          />
          <button type="submit" className="primary" disabled={add.isPending}>
            {t.channels.addDomain}
          </button>
        </form>
      ) : null}
      <Dialog
        open={removing !== null}
        title={removing ? t.channels.removeDomain(removing.domain) : ''}
        onClose={() => setRemoving(null)}
        confirm={{
          label: t.channels.remove,
          danger: true,
          busy: remove.isPending,
          onConfirm: () => {
            if (removing) remove.mutate({ params: { path: { id: channelId, domainId: removing.id } } });
          },
        }}
      >
        <p>{removing ? t.channels.confirmRemoveDomain(removing.domain) : null}</p>
      </Dialog>
    </section>
  );
}
