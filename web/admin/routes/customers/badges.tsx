/** A customer's kind, verification and suspension as badges, in words (not colour alone). */
import { useDictionary } from '../../../shared/i18n/index.js';
import { customersText } from './i18n.js';

export function CustomerBadges({
  kind,
  verified,
  suspended,
}: {
  kind: 'account' | 'guest';
  verified: boolean;
  suspended: boolean;
}) {
  const s = useDictionary(customersText);
  if (kind === 'guest') return <span className="badge badge-guest">{s.guest}</span>;
  return (
    <span className="badges">
      {suspended ? <span className="badge badge-suspended">{s.suspended}</span> : null}
      <span className={`badge ${verified ? 'badge-verified' : 'badge-unverified'}`}>
        {verified ? s.verifiedBadge : s.unverified}
      </span>
    </span>
  );
}
