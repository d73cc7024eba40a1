/**
 * API access (owner or admin): API tokens (scopes; the secret shown once after creation;
 * revoke), publishable keys (allowed origins; create, change, revoke) and the write policy that
 * limits what tokens may change in the catalog.
 */
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { $api, type ApiProblem } from '../../../../shared/api.js';
import { useCan } from '../../../../shared/auth.js';
import { useFormat } from '../../../../shared/format.js';
import { fieldErrors, formValues } from '../../../../shared/forms.js';
import { useDictionary, useT } from '../../../../shared/i18n/index.js';
import { Dialog } from '../../../../shared/widgets/Dialog.js';
import { Field } from '../../../../shared/widgets/Field.js';
import { ProblemAlert } from '../../../../shared/widgets/ProblemAlert.js';
import { toast } from '../../../../shared/widgets/Toasts.js';
import { useTitle } from '../../../shell.js';
import { accessText } from '../i18n.js';
import { OnceSecret } from '../secret.js';

const SCOPES = ['catalog:read', 'catalog:write', 'finance:read'] as const;
type Scope = (typeof SCOPES)[number];

export function ApiAccessPage() {
  const a = useDictionary(accessText);
  const s = a.api;
  useTitle(s.title);
  const can = useCan();
  if (!can('GET /api/admin/api-tokens')) {
    return (
      <div className="page">
        <h1>{s.title}</h1>
        <p className="alert alert-info">{a.readOnly}</p>
      </div>
    );
  }
  return (
    <div className="page access-page">
      <div className="page-head">
        <h1>{s.title}</h1>
      </div>
      <p className="muted">{s.intro}</p>
      <ApiTokens />
      <PublishableKeys />
      {can('GET /api/admin/settings/token-write-policy') ? <WritePolicy /> : null}
    </div>
  );
}

function ApiTokens() {
  const s = useDictionary(accessText).api;
  const t = useT();
  const f = useFormat();
  const can = useCan();
  const queryClient = useQueryClient();
  const formRef = useRef<HTMLFormElement>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<{ id: string; name: string } | null>(null);
  const [scopeError, setScopeError] = useState(false);
  const query = $api.useQuery('get', '/api/admin/api-tokens');
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['get', '/api/admin/api-tokens'] });
  const create = $api.useMutation('post', '/api/admin/api-tokens', {
    onSuccess: async (created) => {
      formRef.current?.reset();
      setSecret(created.token);
      await refresh();
    },
  });
  const revoke = $api.useMutation('delete', '/api/admin/api-tokens/{id}', {
    onSuccess: async () => {
      setRevoking(null);
      toast(s.tokenRevoked);
      await refresh();
    },
  });
  const problem = create.error as ApiProblem | null;
  const errors = fieldErrors(problem, ['name', 'scopes'], t);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const scopes = data.getAll('scopes').filter((v): v is Scope => SCOPES.includes(v as Scope));
    setScopeError(scopes.length === 0);
    if (scopes.length === 0) return;
    create.mutate({ body: { name: String(data.get('name') ?? '').trim(), scopes } });
  };
  const tokens = query.data?.api_tokens ?? [];
  return (
    <section aria-labelledby="tokens-h" className="panel">
      <h2 id="tokens-h">{s.tokens}</h2>
      <p className="hint">{s.tokensIntro}</p>
      {query.error ? <ProblemAlert problem={query.error as ApiProblem} /> : null}
      {query.data && tokens.length === 0 ? <p className="muted">{s.noTokens}</p> : null}
      {tokens.length > 0 ? (
        <div className="table-wrap">
          <table className="data">
            <caption className="visually-hidden">{s.tokens}</caption>
            <thead>
              <tr>
                <th scope="col">{s.tokenName}</th>
                <th scope="col">{s.prefix}</th>
                <th scope="col">{s.scopes}</th>
                <th scope="col">{s.lastUsed}</th>
                <th scope="col">{s.created}</th>
                <th scope="col">
                  <span className="visually-hidden">{s.revoke}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {tokens.map((tok) => (
                <tr key={tok.id}>
                  <th scope="row">{tok.name}</th>
                  <td className="mono">{tok.prefix}…</td>
                  <td>
                    {tok.scopes.map((sc) => (
                      <span className="tag mono" key={sc}>
                        {sc}
                      </span>
                    ))}
                  </td>
                  <td>{tok.last_used_at ? f.dateTime(tok.last_used_at) : s.never}</td>
                  <td>{f.date(tok.created_at)}</td>
                  <td>
                    {can('DELETE /api/admin/api-tokens/{id}') ? (
                      <button
                        type="button"
                        className="small-button"
                        aria-label={s.revokeToken(tok.name)}
                        onClick={() => setRevoking({ id: tok.id, name: tok.name })}
                      >
                        {s.revoke}
                      </button>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {can('POST /api/admin/api-tokens') ? (
        <form ref={formRef} onSubmit={onSubmit} noValidate className="subsection narrow-form">
          <h3>{s.createToken}</h3>
          {problem && errors.other.length > 0 ? <ProblemAlert problem={problem} extra={errors.other} /> : null}
          <Field
            label={s.tokenName}
            name="name"
            required
            maxLength={100}
            autoComplete="off"
            error={errors.fields.name}
          />
          <fieldset aria-describedby={scopeError || errors.fields.scopes ? 'token-scopes-error' : undefined}>
            <legend>{s.scopes}</legend>
            <div className="checks">
              {SCOPES.map((sc) => (
                <div className="check" key={sc}>
                  <input type="checkbox" id={`scope-${sc}`} name="scopes" value={sc} />
                  <label htmlFor={`scope-${sc}`}>{s.scopeLabels[sc]}</label>
                </div>
              ))}
            </div>
            {scopeError || errors.fields.scopes ? (
              <span className="field-error" id="token-scopes-error">
                {scopeError ? s.scopesRequired : errors.fields.scopes}
              </span>
            ) : null}
          </fieldset>
          <button type="submit" className="primary" disabled={create.isPending}>
            {s.createTokenSubmit}
          </button>
        </form>
      ) : null}
      <Dialog open={secret !== null} title={s.secretTitle} onClose={() => setSecret(null)}>
        {secret ? <OnceSecret label={s.secretLabel} text={s.secretText} secret={secret} /> : null}
      </Dialog>
      <Dialog
        open={revoking !== null}
        title={revoking ? s.revokeToken(revoking.name) : ''}
        onClose={() => setRevoking(null)}
        confirm={{
          label: s.revoke,
          danger: true,
          busy: revoke.isPending,
          onConfirm: () => {
            if (revoking) revoke.mutate({ params: { path: { id: revoking.id } } });
          },
        }}
      >
        <p>{revoking ? s.revokeTokenText(revoking.name) : null}</p>
        {revoke.error ? <ProblemAlert problem={revoke.error as ApiProblem} /> : null}
      </Dialog>
    </section>
  );
}

const originsOf = (text: string | undefined) =>
  (text ?? '')
    .split(/[\s,]+/)
    .map((o) => o.trim())
    .filter(Boolean);

function OriginsField({ id, defaultValue, error }: { id: string; defaultValue?: string; error?: string | undefined }) {
  const s = useDictionary(accessText).api;
  const described = [`${id}-hint`, error ? `${id}-error` : null].filter(Boolean).join(' ');
  return (
    <div className="field">
      <label htmlFor={id}>{s.origins}</label>
      <span className="hint" id={`${id}-hint`}>
        {s.originsHint}
      </span>
      <textarea
        id={id}
        name="allowed_origins"
        rows={3}
        defaultValue={defaultValue}
        aria-invalid={error ? true : undefined}
        aria-describedby={described}
      />
      {error ? (
        <span className="field-error" id={`${id}-error`}>
          {error}
        </span>
      ) : null}
    </div>
  );
}

type Key = { id: string; name: string; key: string; allowed_origins: string[] };

function PublishableKeys() {
  const s = useDictionary(accessText).api;
  const t = useT();
  const f = useFormat();
  const can = useCan();
  const queryClient = useQueryClient();
  const formRef = useRef<HTMLFormElement>(null);
  const [editing, setEditing] = useState<Key | null>(null);
  const [revoking, setRevoking] = useState<Key | null>(null);
  const query = $api.useQuery('get', '/api/admin/publishable-keys');
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['get', '/api/admin/publishable-keys'] });
  const create = $api.useMutation('post', '/api/admin/publishable-keys', {
    onSuccess: async () => {
      formRef.current?.reset();
      toast(s.keyCreated);
      await refresh();
    },
  });
  const revoke = $api.useMutation('delete', '/api/admin/publishable-keys/{id}', {
    onSuccess: async () => {
      setRevoking(null);
      toast(s.keyRevoked);
      await refresh();
    },
  });
  const problem = create.error as ApiProblem | null;
  const errors = fieldErrors(problem, ['name', 'allowed_origins'], t);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const v = formValues(event.currentTarget);
    create.mutate({ body: { name: v.name?.trim() ?? '', allowed_origins: originsOf(v.allowed_origins) } });
  };
  const keys = query.data?.publishable_keys ?? [];
  return (
    <section aria-labelledby="keys-h" className="panel">
      <h2 id="keys-h">{s.keys}</h2>
      <p className="hint">{s.keysIntro}</p>
      {query.error ? <ProblemAlert problem={query.error as ApiProblem} /> : null}
      {query.data && keys.length === 0 ? <p className="muted">{s.noKeys}</p> : null}
      {keys.length > 0 ? (
        <div className="table-wrap">
          <table className="data">
            <caption className="visually-hidden">{s.keys}</caption>
            <thead>
              <tr>
                <th scope="col">{s.tokenName}</th>
                <th scope="col">{s.key}</th>
                <th scope="col">{s.origins}</th>
                <th scope="col">{s.created}</th>
                <th scope="col">
                  <span className="visually-hidden">{s.editKey}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.map((k) => (
                <tr key={k.id}>
                  <th scope="row">{k.name}</th>
                  <td className="mono break">{k.key}</td>
                  <td>
                    {k.allowed_origins.length === 0 ? (
                      <span className="muted">{s.noOrigins}</span>
                    ) : (
                      <ul className="plain-list">
                        {k.allowed_origins.map((o) => (
                          <li key={o} className="mono">
                            {o}
                          </li>
                        ))}
                      </ul>
                    )}
                  </td>
                  <td>{f.date(k.created_at)}</td>
                  <td>
                    <div className="row-actions">
                      {can('PATCH /api/admin/publishable-keys/{id}') ? (
                        <button
                          type="button"
                          className="small-button"
                          aria-label={s.editKeyTitle(k.name)}
                          onClick={() => setEditing(k)}
                        >
                          {s.editKey}
                        </button>
                      ) : null}
                      {can('DELETE /api/admin/publishable-keys/{id}') ? (
                        <button
                          type="button"
                          className="small-button"
                          aria-label={s.revokeKey(k.name)}
                          onClick={() => setRevoking(k)}
                        >
                          {s.revoke}
                        </button>
                      ) : null}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {can('POST /api/admin/publishable-keys') ? (
        <form ref={formRef} onSubmit={onSubmit} noValidate className="subsection narrow-form">
          <h3>{s.createKey}</h3>
          {problem && errors.other.length > 0 ? <ProblemAlert problem={problem} extra={errors.other} /> : null}
          <Field
            label={s.tokenName}
            name="name"
            required
            maxLength={100}
            autoComplete="off"
            error={errors.fields.name}
          />
          <OriginsField id="key-origins" error={errors.fields.allowed_origins} />
          <button type="submit" className="primary" disabled={create.isPending}>
            {s.createKeySubmit}
          </button>
        </form>
      ) : null}
      {editing ? <EditKey k={editing} onClose={() => setEditing(null)} onSaved={refresh} /> : null}
      <Dialog
        open={revoking !== null}
        title={revoking ? s.revokeKey(revoking.name) : ''}
        onClose={() => setRevoking(null)}
        confirm={{
          label: s.revoke,
          danger: true,
          busy: revoke.isPending,
          onConfirm: () => {
            if (revoking) revoke.mutate({ params: { path: { id: revoking.id } } });
          },
        }}
      >
        <p>{revoking ? s.revokeKeyText(revoking.name) : null}</p>
        {revoke.error ? <ProblemAlert problem={revoke.error as ApiProblem} /> : null}
      </Dialog>
    </section>
  );
}

function EditKey({ k, onClose, onSaved }: { k: Key; onClose: () => void; onSaved: () => Promise<void> }) {
  const s = useDictionary(accessText).api;
  const t = useT();
  const formRef = useRef<HTMLFormElement>(null);
  const update = $api.useMutation('patch', '/api/admin/publishable-keys/{id}', {
    onSuccess: async () => {
      toast(s.keySaved);
      onClose();
      await onSaved();
    },
  });
  const problem = update.error as ApiProblem | null;
  const errors = fieldErrors(problem, ['name', 'allowed_origins'], t);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const v = formValues(event.currentTarget);
    update.mutate({
      params: { path: { id: k.id } },
      body: { name: v.name?.trim() ?? '', allowed_origins: originsOf(v.allowed_origins) },
    });
  };
  return (
    <Dialog
      open
      title={s.editKeyTitle(k.name)}
      onClose={onClose}
      confirm={{ label: t.common.save, busy: update.isPending, onConfirm: () => formRef.current?.requestSubmit() }}
    >
      {problem && errors.other.length > 0 ? <ProblemAlert problem={problem} extra={errors.other} /> : null}
      <form ref={formRef} onSubmit={onSubmit} noValidate>
        <Field
          label={s.tokenName}
          name="name"
          defaultValue={k.name}
          required
          maxLength={100}
          autoComplete="off"
          error={errors.fields.name}
        />
        <OriginsField
          id="edit-origins"
          defaultValue={k.allowed_origins.join('\n')}
          error={errors.fields.allowed_origins}
        />
      </form>
    </Dialog>
  );
}

function WritePolicy() {
  const s = useDictionary(accessText).api;
  const t = useT();
  const can = useCan();
  const queryClient = useQueryClient();
  const query = $api.useQuery('get', '/api/admin/settings/token-write-policy');
  const save = $api.useMutation('put', '/api/admin/settings/token-write-policy', {
    onSuccess: async () => {
      toast(s.policySaved);
      await queryClient.invalidateQueries({ queryKey: ['get', '/api/admin/settings/token-write-policy'] });
    },
  });
  const problem = save.error as ApiProblem | null;
  const errors = fieldErrors(problem, ['max_price_change_percent', 'price_change_window_hours'], t);
  const readOnly = !can('PUT /api/admin/settings/token-write-policy');
  const data = query.data;
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const percent = String(form.get('max_price_change_percent') ?? '').trim();
    const hours = String(form.get('price_change_window_hours') ?? '').trim();
    save.mutate({
      body: {
        allow_price_changes: form.get('allow_price_changes') === 'on',
        allow_status_changes: form.get('allow_status_changes') === 'on',
        allow_vendor_tax_changes: form.get('allow_vendor_tax_changes') === 'on',
        max_price_change_percent: percent === '' ? null : Number(percent),
        ...(hours === '' ? {} : { price_change_window_hours: Number(hours) }),
      },
    });
  };
  const check = (name: string, label: string, value: boolean) => (
    <div className="check">
      <input type="checkbox" id={`policy-${name}`} name={name} defaultChecked={value} />
      <label htmlFor={`policy-${name}`}>{label}</label>
    </div>
  );
  return (
    <section aria-labelledby="policy-h" className="panel narrow-form">
      <h2 id="policy-h">{s.policy}</h2>
      <p className="hint">{s.policyIntro}</p>
      {query.error ? <ProblemAlert problem={query.error as ApiProblem} /> : null}
      {problem ? <ProblemAlert problem={problem} extra={errors.other} /> : null}
      {data ? (
        <form onSubmit={onSubmit} noValidate key={JSON.stringify(data)}>
          <fieldset disabled={readOnly} className="plain">
            <div className="checks">
              {check('allow_price_changes', s.allowPrice, data.allow_price_changes)}
              {check('allow_status_changes', s.allowStatus, data.allow_status_changes)}
              {check('allow_vendor_tax_changes', s.allowVendorTax, data.allow_vendor_tax_changes)}
            </div>
            <Field
              label={s.maxPercent}
              name="max_price_change_percent"
              type="number"
              inputMode="numeric"
              min={0}
              max={10000}
              className="short"
              defaultValue={data.max_price_change_percent ?? ''}
              hint={s.maxPercentHint}
              error={errors.fields.max_price_change_percent}
            />
            <Field
              label={s.windowHours}
              name="price_change_window_hours"
              type="number"
              inputMode="numeric"
              min={1}
              max={8760}
              className="short"
              defaultValue={data.price_change_window_hours}
              hint={s.windowHint}
              error={errors.fields.price_change_window_hours}
            />
            {readOnly ? null : (
              <button type="submit" className="primary" disabled={save.isPending}>
                {t.common.save}
              </button>
            )}
          </fieldset>
        </form>
      ) : null}
    </section>
  );
}
