/**
 * Every digital screen asks the add-on's status first (GET /api/admin/digital/status, readable by
 * every employee): when the platform has not made the add-on available the screen says so in a
 * page of its own; when it is available but switched off, the screens of plans, subscriptions and
 * statistics point to the status page instead of failing with 403 addon_inactive.
 */
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { $api, type ApiProblem } from '../../../shared/api.js';
import { useDictionary, useT } from '../../../shared/i18n/index.js';
import { ProblemAlert } from '../../../shared/widgets/ProblemAlert.js';
import { useTitle } from '../../shell.js';
import { digitalText } from './i18n.js';

export const useDigitalStatus = () => $api.useQuery('get', '/api/admin/digital/status');

function Notice({ title, body, link }: { title: string; body: string; link?: boolean }) {
  const s = useDictionary(digitalText);
  useTitle(title);
  return (
    <div className="page narrow">
      <h1>{title}</h1>
      <div className="alert alert-info digital-gate">
        <p>{body}</p>
        {link ? (
          <p>
            <Link to="/digital">{s.gate.toStatus}</Link>
          </p>
        ) : null}
      </div>
    </div>
  );
}

/** Renders `children` only when the add-on is available (and, with `needsActive`, switched on). */
export function DigitalGate({
  title,
  needsActive = true,
  children,
}: {
  title: string;
  needsActive?: boolean;
  children: ReactNode;
}) {
  const t = useT();
  const s = useDictionary(digitalText);
  const status = useDigitalStatus();
  if (status.error) {
    return (
      <div className="page">
        <h1>{title}</h1>
        <ProblemAlert problem={status.error as ApiProblem} />
      </div>
    );
  }
  if (!status.data) {
    return (
      <div className="page">
        <h1>{title}</h1>
        <p className="muted">{t.common.loading}</p>
      </div>
    );
  }
  if (!status.data.erlaubt) return <Notice title={s.gate.unavailableTitle} body={s.gate.unavailableBody} />;
  if (needsActive && !status.data.aktiv) {
    return <Notice title={s.gate.inactiveTitle} body={s.gate.inactiveBody} link />;
  }
  return <>{children}</>;
}
