/**
 * Employees (owner only): who may sign in, with which role and channel restriction; invite,
 * change, suspend / restore and remove, each said in a dialog first. The server's rules (the last
 * owner, not one's own account) come back as problems and are shown as they are.
 */
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useRef, useState } from 'react';
import { $api, type ApiProblem } from '../../../../shared/api.js';
import { useCan, useMe } from '../../../../shared/auth.js';
import { useFormat } from '../../../../shared/format.js';
import { fieldErrors, formValues } from '../../../../shared/forms.js';
import { useDictionary, useErrorMessage, useT } from '../../../../shared/i18n/index.js';
import { Dialog } from '../../../../shared/widgets/Dialog.js';
import { Field } from '../../../../shared/widgets/Field.js';
import { ProblemAlert } from '../../../../shared/widgets/ProblemAlert.js';
import { toast } from '../../../../shared/widgets/Toasts.js';
import { useTitle } from '../../../shell.js';
import { accessText } from '../i18n.js';

type User = {
  id: string;
  email: string;
  name: string | null;
  role: Role;
  channel_ids: string[];
  channel_restricted: boolean;
  suspended_at: string | null;
};
const ROLES = ['owner', 'admin', 'catalog_editor', 'viewer'] as const;
type Role = (typeof ROLES)[number];
type Action = { kind: 'change' | 'suspend' | 'restore' | 'remove'; user: User };

const EMPLOYEES = ['get', '/api/admin/employees'] as const;

export function EmployeesPage() {
  const s = useDictionary(accessText).employees;
  const a = useDictionary(accessText);
  const t = useT();
  useTitle(s.title);
  const can = useCan();
  const me = useMe();
  const f = useFormat();
  const mayRead = can('GET /api/admin/employees');
  const query = $api.useQuery('get', '/api/admin/employees', {}, { enabled: mayRead });
  const channels = $api.useQuery('get', '/api/admin/channels', {}, { enabled: mayRead });
  const channelName = (id: string) => channels.data?.channels.find((c) => c.id === id)?.name ?? id;
  const [action, setAction] = useState<Action | null>(null);
  const who = (u: User) => u.name ?? u.email;
  if (!mayRead) {
    return (
      <div className="page">
        <h1>{s.title}</h1>
        <p className="alert alert-info">{a.readOnly}</p>
      </div>
    );
  }
  const employees = (query.data?.employees ?? []) as User[];
  return (
    <div className="page access-page">
      <div className="page-head">
        <h1>{s.title}</h1>
        {query.data ? <p className="muted">{s.count(employees.length)}</p> : null}
      </div>
      <p className="muted">{s.intro}</p>
      {query.error ? <ProblemAlert problem={query.error as ApiProblem} /> : null}
      <div className="table-wrap" aria-busy={query.isFetching || undefined}>
        <table className="data">
          <caption className="visually-hidden">{s.title}</caption>
          <thead>
            <tr>
              <th scope="col">{s.name}</th>
              <th scope="col">{s.role}</th>
              <th scope="col">{s.channels}</th>
              <th scope="col">{s.status}</th>
              <th scope="col">{s.actions}</th>
            </tr>
          </thead>
          <tbody>
            {employees.map((u) => (
              <tr key={u.id}>
                <th scope="row">
                  {u.name ?? u.email}
                  {u.id === me?.user.id ? <span className="tag">{s.you}</span> : null}
                  {u.name ? <span className="muted block small">{u.email}</span> : null}
                </th>
                <td>{t.roles[u.role]}</td>
                <td>
                  {!u.channel_restricted
                    ? s.allChannels
                    : u.channel_ids.length === 0
                      ? s.noChannel
                      : u.channel_ids.map(channelName).join(', ')}
                </td>
                <td>
                  {u.suspended_at ? (
                    <span className="badge badge-cancelled" title={s.suspendedSince(f.dateTime(u.suspended_at))}>
                      {s.suspended}
                    </span>
                  ) : (
                    <span className="badge badge-fulfilled">{s.active}</span>
                  )}
                </td>
                <td>
                  <div className="row-actions">
                    <button
                      type="button"
                      className="small-button"
                      aria-label={s.changeTitle(who(u))}
                      onClick={() => setAction({ kind: 'change', user: u })}
                    >
                      {s.change}
                    </button>
                    <button
                      type="button"
                      className="small-button"
                      aria-label={u.suspended_at ? s.restoreTitle(who(u)) : s.suspendTitle(who(u))}
                      onClick={() => setAction({ kind: u.suspended_at ? 'restore' : 'suspend', user: u })}
                    >
                      {u.suspended_at ? s.restore : s.suspend}
                    </button>
                    <button
                      type="button"
                      className="small-button"
                      aria-label={s.removeTitle(who(u))}
                      onClick={() => setAction({ kind: 'remove', user: u })}
                    >
                      {s.remove}
                    </button>
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {!query.data && query.isPending ? <p className="muted">{t.common.loading}</p> : null}
      </div>
      {action?.kind === 'change' ? (
        <ChangeEmployee user={action.user} channels={channels.data?.channels ?? []} onClose={() => setAction(null)} />
      ) : null}
      {action && action.kind !== 'change' ? <ConfirmAction action={action} onClose={() => setAction(null)} /> : null}
      <InviteEmployee channels={channels.data?.channels ?? []} />
    </div>
  );
}

type Channel = { id: string; name: string };

/** "Restrict to channels" and the channels, as the API takes them: null = every channel. */
function ChannelRestriction({ channels, initial }: { channels: Channel[]; initial: string[] | null }) {
  const s = useDictionary(accessText).employees;
  const [restricted, setRestricted] = useState(initial !== null);
  const id = useId();
  return (
    <div className="field">
      <div className="check">
        <input
          type="checkbox"
          id={id}
          name="restricted"
          checked={restricted}
          onChange={(e) => setRestricted(e.currentTarget.checked)}
          aria-describedby={`${id}-hint`}
        />
        <label htmlFor={id}>{s.restrict}</label>
      </div>
      <span className="hint" id={`${id}-hint`}>
        {s.restrictHint}
      </span>
      {restricted ? (
        <fieldset>
          <legend>{s.channelsLegend}</legend>
          <div className="checks">
            {channels.map((c) => (
              <div className="check" key={c.id}>
                <input
                  type="checkbox"
                  id={`${id}-${c.id}`}
                  name="channel_ids"
                  value={c.id}
                  defaultChecked={initial?.includes(c.id)}
                />
                <label htmlFor={`${id}-${c.id}`}>{c.name}</label>
              </div>
            ))}
          </div>
        </fieldset>
      ) : null}
    </div>
  );
}

/** The restriction a form asks for: null (every channel) or the ticked channels. */
function restrictionOf(form: HTMLFormElement): string[] | null {
  const data = new FormData(form);
  if (data.get('restricted') !== 'on') return null;
  return data.getAll('channel_ids').filter((v): v is string => typeof v === 'string');
}

function RoleSelect({ id, value, error }: { id: string; value?: Role; error?: string | undefined }) {
  const s = useDictionary(accessText).employees;
  const t = useT();
  return (
    <div className="field">
      <label htmlFor={id}>{s.role}</label>
      <select
        id={id}
        name="role"
        defaultValue={value ?? 'viewer'}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      >
        {ROLES.map((r) => (
          <option key={r} value={r}>
            {t.roles[r]} – {s.roleHelp[r]}
          </option>
        ))}
      </select>
      {error ? (
        <span className="field-error" id={`${id}-error`}>
          {error}
        </span>
      ) : null}
    </div>
  );
}

function InviteEmployee({ channels }: { channels: Channel[] }) {
  const s = useDictionary(accessText).employees;
  const t = useT();
  const message = useErrorMessage();
  const queryClient = useQueryClient();
  const formRef = useRef<HTMLFormElement>(null);
  const [formKey, setFormKey] = useState(0);
  const create = $api.useMutation('post', '/api/admin/employees', {
    onSuccess: async (user) => {
      toast(s.invited(user.email));
      formRef.current?.reset();
      setFormKey((k) => k + 1);
      await queryClient.invalidateQueries({ queryKey: EMPLOYEES });
    },
  });
  const problem = create.error as ApiProblem | null;
  const errors = fieldErrors(problem, ['email', 'name', 'password', 'role', 'channel_ids'], t);
  if (problem?.code === 'email_taken') errors.fields.email = message('email_taken');
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const v = formValues(event.currentTarget);
    const name = v.name?.trim();
    create.mutate({
      body: {
        email: v.email?.trim() ?? '',
        password: v.password ?? '',
        ...(name ? { name } : {}),
        role: (v.role ?? 'viewer') as Role,
        channel_ids: restrictionOf(event.currentTarget),
      },
    });
  };
  return (
    <section aria-labelledby="invite-h" className="panel narrow-form">
      <h2 id="invite-h">{s.invite}</h2>
      <p className="hint">{s.inviteHint}</p>
      {problem && !errors.fields.email ? <ProblemAlert problem={problem} extra={errors.other} /> : null}
      <form ref={formRef} onSubmit={onSubmit} noValidate key={formKey}>
        <Field
          label={s.email}
          name="email"
          type="email"
          required
          autoComplete="off"
          maxLength={254}
          error={errors.fields.email}
        />
        <Field label={s.name} name="name" maxLength={200} autoComplete="off" error={errors.fields.name} />
        <RoleSelect id="invite-role" error={errors.fields.role} />
        <Field
          label={s.password}
          name="password"
          type="password"
          required
          autoComplete="new-password"
          minLength={8}
          maxLength={200}
          hint={s.passwordHint}
          error={errors.fields.password}
        />
        <ChannelRestriction channels={channels} initial={null} />
        {errors.fields.channel_ids ? <p className="field-error">{errors.fields.channel_ids}</p> : null}
        <button type="submit" className="primary" disabled={create.isPending}>
          {s.inviteSubmit}
        </button>
      </form>
    </section>
  );
}

function ChangeEmployee({ user, channels, onClose }: { user: User; channels: Channel[]; onClose: () => void }) {
  const s = useDictionary(accessText).employees;
  const t = useT();
  const queryClient = useQueryClient();
  const formRef = useRef<HTMLFormElement>(null);
  const update = $api.useMutation('patch', '/api/admin/employees/{id}', {
    onSuccess: async () => {
      toast(s.saved);
      onClose();
      await queryClient.invalidateQueries({ queryKey: EMPLOYEES });
    },
  });
  const problem = update.error as ApiProblem | null;
  const errors = fieldErrors(problem, ['name', 'role', 'channel_ids'], t);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const v = formValues(event.currentTarget);
    update.mutate({
      params: { path: { id: user.id } },
      body: {
        name: v.name?.trim() ? v.name.trim() : null,
        role: (v.role ?? user.role) as Role,
        channel_ids: restrictionOf(event.currentTarget),
      },
    });
  };
  return (
    <Dialog
      open
      title={s.changeTitle(user.name ?? user.email)}
      onClose={onClose}
      confirm={{ label: t.common.save, busy: update.isPending, onConfirm: () => formRef.current?.requestSubmit() }}
    >
      {problem ? <ProblemAlert problem={problem} extra={errors.other} /> : null}
      <form ref={formRef} onSubmit={onSubmit} noValidate>
        <Field
          label={s.name}
          name="name"
          defaultValue={user.name ?? ''}
          maxLength={200}
          autoComplete="off"
          error={errors.fields.name}
        />
        <RoleSelect id="change-role" value={user.role} error={errors.fields.role} />
        <ChannelRestriction channels={channels} initial={user.channel_restricted ? user.channel_ids : null} />
      </form>
    </Dialog>
  );
}

function ConfirmAction({ action, onClose }: { action: Action; onClose: () => void }) {
  const s = useDictionary(accessText).employees;
  const queryClient = useQueryClient();
  const who = action.user.name ?? action.user.email;
  const done = (text: string) => async () => {
    toast(text);
    onClose();
    await queryClient.invalidateQueries({ queryKey: EMPLOYEES });
  };
  const suspend = $api.useMutation('post', '/api/admin/employees/{id}/suspend', { onSuccess: done(s.suspended_toast) });
  const restore = $api.useMutation('post', '/api/admin/employees/{id}/restore', { onSuccess: done(s.restored) });
  const remove = $api.useMutation('delete', '/api/admin/employees/{id}', { onSuccess: done(s.removed) });
  const params = { path: { id: action.user.id } };
  const view = {
    suspend: {
      title: s.suspendTitle(who),
      text: s.suspendText(who),
      label: s.suspend,
      m: suspend,
      run: () => suspend.mutate({ params }),
      danger: true,
    },
    restore: {
      title: s.restoreTitle(who),
      text: s.restoreText(who),
      label: s.restore,
      m: restore,
      run: () => restore.mutate({ params }),
      danger: false,
    },
    remove: {
      title: s.removeTitle(who),
      text: s.removeText(who),
      label: s.remove,
      m: remove,
      run: () => remove.mutate({ params }),
      danger: true,
    },
  }[action.kind as 'suspend' | 'restore' | 'remove'];
  const problem = view.m.error as ApiProblem | null;
  return (
    <Dialog
      open
      title={view.title}
      onClose={onClose}
      confirm={{
        label: view.label,
        danger: view.danger,
        busy: view.m.isPending,
        onConfirm: view.run,
      }}
    >
      <p>{view.text}</p>
      {problem ? <ProblemAlert problem={problem} /> : null}
    </Dialog>
  );
}
