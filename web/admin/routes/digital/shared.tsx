/** Small parts the digital screens share: a subscription's status in words, an interval in words. */
import { useDictionary } from '../../../shared/i18n/index.js';
import { digitalText, type IntervalUnit } from './i18n.js';

export function AboStatusBadge({ status }: { status: string }) {
  const s = useDictionary(digitalText);
  return <span className={`badge badge-abo-${status}`}>{s.abos.statuses[status] ?? status}</span>;
}

export function TestBadge() {
  const s = useDictionary(digitalText);
  return <span className="badge badge-test">{s.abos.testBadge}</span>;
}

const UNITS: readonly string[] = ['day', 'week', 'month', 'year'];

/** "monatlich", "alle 3 Monate" / "monthly", "every 3 months" (the API's interval_text is German only). */
export function useIntervalText(): (unit: string, count: number, fallback: string) => string {
  const s = useDictionary(digitalText);
  return (unit, count, fallback) => (UNITS.includes(unit) ? s.units(count, unit as IntervalUnit) : fallback);
}
