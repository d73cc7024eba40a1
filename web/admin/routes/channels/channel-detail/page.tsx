/**
 * One sales channel: activate or deactivate it, make it the default, its settings and order rules
 * (currency with its lock), domains, countries with tax overrides (entered in percent, stored as
 * fractions), own countries and payment methods. What the role may not change is shown read-only.
 */

import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { $api, type ApiProblem } from '../../../../shared/api.js';
import { useCan } from '../../../../shared/auth.js';
import { useErrorMessage, useT } from '../../../../shared/i18n/index.js';
import { Dialog } from '../../../../shared/widgets/Dialog.js';
import { ProblemAlert } from '../../../../shared/widgets/ProblemAlert.js';
import { toast } from '../../../../shared/widgets/Toasts.js';
import { channelRoute } from '../../../router.js';
import { useTitle } from '../../../shell.js';
import type { Channel } from '../reference.js';
import { Countries } from './countries.js';
import { Domains } from './domains.js';
import { PaymentMethods } from './payment.js';
import { useRefreshChannel } from './refresh.js';
import { Settings } from './settings.js';

export function ChannelDetailPage() {
  const t = useT();
  const { id } = channelRoute.useParams();
  const query = $api.useQuery('get', '/api/admin/channels/{id}', { params: { path: { id } } });
  const channel = query.data;
  useTitle(channel ? t.channels.channelTitle(channel.name) : t.channels.title);
  return (
    <div className="page channel-page">
      <p>
        <Link to="/channels">← {t.channels.back}</Link>
      </p>
      {query.error ? <ProblemAlert problem={query.error as ApiProblem} /> : null}
      {!channel ? (
        query.isPending ? (
          <p className="muted">{t.common.loading}</p>
        ) : null
      ) : (
        <>
          <div className="page-head">
            <h1>{t.channels.channelTitle(channel.name)}</h1>
            {channel.is_default ? <span className="badge badge-paid">{t.channels.isDefault}</span> : null}
            <span className={channel.is_active ? 'badge badge-fulfilled' : 'badge badge-cancelled'}>
              {channel.is_active ? t.channels.active : t.channels.inactive}
            </span>
          </div>
          <ChannelActions channel={channel} />
          <Settings channel={channel} key={channel.updated_at} />
          <Domains channelId={channel.id} />
          <Countries channelId={channel.id} />
          <PaymentMethods channelId={channel.id} />
        </>
      )}
    </div>
  );
}

type Action = 'activate' | 'deactivate' | 'default' | 'remove';

function ChannelActions({ channel }: { channel: Channel }) {
  const t = useT();
  const can = useCan();
  const message = useErrorMessage();
  const refresh = useRefreshChannel();
  const [pending, setPending] = useState<Action | null>(null);
  const options = {
    onSuccess: async () => {
      setPending(null);
      toast(t.channels.saved);
      await refresh();
    },
    onError: (problem: ApiProblem) => {
      setPending(null);
      toast(message(problem.code), 'error');
    },
  };
  const patch = $api.useMutation('patch', '/api/admin/channels/{id}', options);
  const setDefault = $api.useMutation('post', '/api/admin/channels/{id}/set-default', options);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const remove = $api.useMutation('delete', '/api/admin/channels/{id}', {
    onSuccess: async () => {
      setPending(null);
      toast(t.channels.channelRemoved(channel.name));
      await queryClient.invalidateQueries({ queryKey: ['get', '/api/admin/channels'] });
      await navigate({ to: '/channels' });
    },
    onError: options.onError,
  });
  const path = { id: channel.id };
  const actions = [
    {
      key: 'activate' as const,
      label: t.channels.activate,
      text: t.channels.confirmActivate,
      show: !channel.is_active && can('PATCH /api/admin/channels/{id}'),
      busy: patch.isPending,
      run: () => patch.mutate({ params: { path }, body: { is_active: true } }),
    },
    {
      key: 'deactivate' as const,
      label: t.channels.deactivate,
      text: t.channels.confirmDeactivate,
      danger: true,
      // the default channel cannot be deactivated (the API says default_channel)
      show: channel.is_active && !channel.is_default && can('PATCH /api/admin/channels/{id}'),
      busy: patch.isPending,
      run: () => patch.mutate({ params: { path }, body: { is_active: false } }),
    },
    {
      key: 'default' as const,
      label: t.channels.makeDefault,
      text: t.channels.confirmDefault(channel.name),
      show: channel.is_active && !channel.is_default && can('POST /api/admin/channels/{id}/set-default'),
      busy: setDefault.isPending,
      run: () => setDefault.mutate({ params: { path } }),
    },
    {
      key: 'remove' as const,
      label: t.channels.removeChannel,
      text: t.channels.confirmRemoveChannel(channel.name),
      danger: true,
      // the default channel cannot be deleted; one with orders answers channel_in_use
      show: !channel.is_default && can('DELETE /api/admin/channels/{id}'),
      busy: remove.isPending,
      run: () => remove.mutate({ params: { path } }),
    },
  ].filter((a) => a.show);
  if (actions.length === 0) return null;
  const open = actions.find((a) => a.key === pending);
  return (
    <section aria-label={t.order.actions} className="actions">
      {actions.map((a) => (
        <button key={a.key} type="button" className={a.danger ? 'danger' : undefined} onClick={() => setPending(a.key)}>
          {a.label}
        </button>
      ))}
      <Dialog
        open={open !== undefined}
        title={open?.label ?? ''}
        onClose={() => setPending(null)}
        confirm={open ? { label: open.label, danger: open.danger, busy: open.busy, onConfirm: open.run } : undefined}
      >
        <p>{open?.text}</p>
      </Dialog>
    </section>
  );
}
