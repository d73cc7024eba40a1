/** What happened to the order, oldest first, in the page's words per kind (from the events' facts; the server's English text aside). */
import { $api } from '../../../../shared/api.js';
import { useFormat } from '../../../../shared/format.js';
import { useDictionary, useT } from '../../../../shared/i18n/index.js';
import type { OrderDetail } from './lines.js';
import { timelineText } from './timeline.i18n.js';

/** The line under an entry, in the page's language, from the event's facts (the server's English `detail` is for API clients). */
function Detail({ text }: { text: string | null }) {
  return text ? <span className="muted small block">{text}</span> : null;
}

export function OrderTimeline({ order }: { order: OrderDetail }) {
  const t = useT();
  const words = useDictionary(timelineText);
  const f = useFormat();
  const query = $api.useQuery('get', '/api/admin/orders/{id}/timeline', { params: { path: { id: order.id } } });
  const events = query.data?.events ?? [];
  return (
    <section aria-labelledby="timeline-h" className="panel">
      <h2 id="timeline-h">{t.orderOps.timeline}</h2>
      {query.isPending ? <p className="muted">{t.common.loading}</p> : null}
      {query.data && events.length === 0 ? <p className="muted">{t.orderOps.noTimeline}</p> : null}
      {events.length > 0 ? (
        <ol className="timeline">
          {events.map((e, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: events are read whole, oldest first, never reordered
            <li key={i} className={`tl tl-${e.kind}`}>
              <time dateTime={e.at}>{f.dateTime(e.at)}</time>
              <span className="tl-what">
                {t.orderOps.kinds[e.kind]}
                {e.amount_cents != null ? <> · {f.money(e.amount_cents, order.currency)}</> : null}
              </span>
              <Detail text={words[e.kind](e.facts ?? {})} />
            </li>
          ))}
        </ol>
      ) : null}
    </section>
  );
}
