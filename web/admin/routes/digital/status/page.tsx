/**
 * The add-on's status (GET/PUT /api/admin/digital/status): `erlaubt` (the platform's, read-only),
 * `aktiv` and the partner commission mode for subscriptions with its months (asked only, and
 * required, for "monate"). Owner and admin change it; other roles read it.
 */
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { $api, type ApiProblem } from '../../../../shared/api.js';
import { useCan } from '../../../../shared/auth.js';
import { fieldErrors } from '../../../../shared/forms.js';
import { useDictionary, useT } from '../../../../shared/i18n/index.js';
import { Field } from '../../../../shared/widgets/Field.js';
import { ProblemAlert } from '../../../../shared/widgets/ProblemAlert.js';
import { toast } from '../../../../shared/widgets/Toasts.js';
import { useTitle } from '../../../shell.js';
import { DigitalGate, useDigitalStatus } from '../gate.js';
import { digitalText } from '../i18n.js';

const MODES = ['erste', 'monate', 'immer'] as const;
type Mode = (typeof MODES)[number];

export function DigitalStatusPage() {
  const s = useDictionary(digitalText);
  useTitle(s.status.title);
  return (
    <DigitalGate title={s.status.title} needsActive={false}>
      <StatusForm />
    </DigitalGate>
  );
}

function StatusForm() {
  const t = useT();
  const s = useDictionary(digitalText);
  const can = useCan();
  const queryClient = useQueryClient();
  const status = useDigitalStatus().data;
  const editable = can('PUT /api/admin/digital/status');
  const [mode, setMode] = useState<Mode>(status?.abo_provision ?? 'erste');
  const save = $api.useMutation('put', '/api/admin/digital/status', {
    onSuccess: async (data) => {
      queryClient.setQueryData(['get', '/api/admin/digital/status', {}], data);
      await queryClient.invalidateQueries({ queryKey: ['get', '/api/admin/digital/status'] });
      toast(s.status.saved);
    },
  });
  if (!status) return null;
  const problem = save.error as ApiProblem | null;
  const errors = fieldErrors(problem, ['aktiv', 'abo_provision', 'abo_provision_monate'], t);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const months = String(data.get('abo_provision_monate') ?? '').trim();
    save.mutate({
      body: {
        aktiv: data.has('aktiv'),
        abo_provision: mode,
        abo_provision_monate: mode === 'monate' ? (months === '' ? null : Number(months)) : null,
      },
    });
  };
  return (
    <div className="page narrow digital-status">
      <h1>{s.status.title}</h1>
      <dl className="facts panel">
        <dt>{s.status.erlaubt}</dt>
        <dd>
          {status.erlaubt ? s.status.yes : s.status.no} <span className="muted small">({s.status.erlaubtHint})</span>
        </dd>
      </dl>
      {!editable ? <p className="muted">{s.status.readOnly}</p> : null}
      {problem && Object.keys(errors.fields).length === 0 ? (
        <ProblemAlert problem={problem} extra={errors.other} />
      ) : null}
      <form onSubmit={onSubmit} noValidate className="panel">
        <fieldset disabled={!editable} className="plain">
          <legend className="visually-hidden">{s.status.title}</legend>
          <div className="check">
            <input
              type="checkbox"
              id="digital-aktiv"
              name="aktiv"
              defaultChecked={status.aktiv}
              aria-describedby="digital-aktiv-hint"
            />
            <label htmlFor="digital-aktiv">{s.status.aktiv}</label>
          </div>
          <p className="hint muted small" id="digital-aktiv-hint">
            {s.status.aktivHint}
          </p>
          <fieldset>
            <legend>{s.status.provision}</legend>
            {MODES.map((m) => (
              <div className="check" key={m}>
                <input
                  type="radio"
                  id={`digital-provision-${m}`}
                  name="abo_provision"
                  value={m}
                  checked={mode === m}
                  onChange={() => setMode(m)}
                />
                <label htmlFor={`digital-provision-${m}`}>{s.status.provisionModes[m]}</label>
              </div>
            ))}
            {mode === 'monate' ? (
              <Field
                label={s.status.monate}
                name="abo_provision_monate"
                type="number"
                min={1}
                max={1200}
                step={1}
                required
                className="short"
                defaultValue={status.abo_provision_monate ?? ''}
                hint={s.status.monateHint}
                error={errors.fields.abo_provision_monate}
              />
            ) : null}
          </fieldset>
          {editable ? (
            <button type="submit" className="primary" disabled={save.isPending} aria-busy={save.isPending || undefined}>
              {t.common.save}
            </button>
          ) : null}
        </fieldset>
      </form>
    </div>
  );
}
