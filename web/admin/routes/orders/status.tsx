/** An order status in words (not colour alone). */
import { useT } from '../../../shared/i18n/index.js';
import { ORDER_STATUSES } from '../../router.js';

type Status = (typeof ORDER_STATUSES)[number];

export function StatusBadge({ status }: { status: string }) {
  const t = useT();
  const known = (ORDER_STATUSES as readonly string[]).includes(status);
  return <span className={`badge badge-${status}`}>{known ? t.orders.statuses[status as Status] : status}</span>;
}
