/**
 * The statistics' charts as inline SVG (no chart library; the page's CSP allows no style
 * attributes, so colours come from classes in styles.css). Each chart is a figure: the SVG is an
 * image with a name and a one-sentence description, and a <details> holds the same numbers as a
 * table for screen readers and for reading exact values.
 */
import { type ReactNode, useId } from 'react';
import { useDictionary } from '../../../../shared/i18n/index.js';
import { digitalText } from '../i18n.js';

const W = 720;
const H = 220;
const PAD = { left: 64, right: 16, top: 12, bottom: 28 };

function ChartFigure({
  title,
  summary,
  table,
  children,
  legend,
  height = H,
  quietTitle = false,
}: {
  title: string;
  summary: string;
  table: ReactNode;
  children: ReactNode;
  legend?: ReactNode;
  height?: number;
  /** The section's heading already says the title: it stays the figure's name, not shown twice. */
  quietTitle?: boolean;
}) {
  const s = useDictionary(digitalText);
  const id = useId();
  return (
    <figure className="chart" aria-labelledby={`${id}-cap`}>
      <figcaption id={`${id}-cap`}>
        <span className={quietTitle ? 'visually-hidden' : 'chart-title'}>{title}</span>
        <span className="chart-summary muted small block">{summary}</span>
      </figcaption>
      <svg
        viewBox={`0 0 ${W} ${height}`}
        role="img"
        aria-labelledby={`${id}-t ${id}-d`}
        className="chart-svg"
        preserveAspectRatio="xMidYMid meet"
      >
        <title id={`${id}-t`}>{title}</title>
        <desc id={`${id}-d`}>{summary}</desc>
        {children}
      </svg>
      {legend}
      <details className="chart-table">
        <summary>{s.statistik.table}</summary>
        <div className="table-wrap">{table}</div>
      </details>
    </figure>
  );
}

const innerW = W - PAD.left - PAD.right;
const innerH = H - PAD.top - PAD.bottom;

/** A round upper bound for the y axis (1, 2, 5 × 10^n). */
function niceMax(value: number): number {
  if (value <= 0) return 1;
  const exp = 10 ** Math.floor(Math.log10(value));
  for (const m of [1, 2, 5, 10]) if (m * exp >= value) return m * exp;
  return 10 * exp;
}

function YAxis({ max, format }: { max: number; format: (v: number) => string }) {
  const ticks = [0, max / 2, max];
  return (
    <g className="chart-axis">
      {ticks.map((v) => {
        const y = PAD.top + innerH - (v / max) * innerH;
        return (
          <g key={v}>
            <line x1={PAD.left} x2={W - PAD.right} y1={y} y2={y} className="chart-grid" />
            <text x={PAD.left - 6} y={y + 4} textAnchor="end">
              {format(v)}
            </text>
          </g>
        );
      })}
    </g>
  );
}

export interface LinePoint {
  label: string;
  value: number;
}

/** One series over days: a line with the area under it. */
export function LineChart({
  title,
  summary,
  points,
  format,
  table,
}: {
  title: string;
  summary: string;
  points: LinePoint[];
  format: (v: number) => string;
  table: ReactNode;
}) {
  const max = niceMax(Math.max(0, ...points.map((p) => p.value)));
  const step = points.length > 1 ? innerW / (points.length - 1) : 0;
  const xy = points.map((p, i) => [PAD.left + i * step, PAD.top + innerH - (p.value / max) * innerH] as const);
  const line = xy.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(' ');
  const base = PAD.top + innerH;
  const area =
    xy.length > 0
      ? `M${PAD.left},${base} L${xy.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(' L')} L${(xy.at(-1)?.[0] ?? PAD.left).toFixed(1)},${base} Z`
      : '';
  const first = points[0];
  const last = points.at(-1);
  return (
    <ChartFigure title={title} summary={summary} table={table}>
      <YAxis max={max} format={format} />
      {area ? <path d={area} className="chart-area" /> : null}
      {xy.length > 1 ? <polyline points={line} className="chart-line" /> : null}
      {xy.length === 1 && xy[0] ? <circle cx={xy[0][0]} cy={xy[0][1]} r={3} className="chart-dot" /> : null}
      <g className="chart-axis">
        {first ? (
          <text x={PAD.left} y={H - 8} textAnchor="start">
            {first.label}
          </text>
        ) : null}
        {last && points.length > 1 ? (
          <text x={W - PAD.right} y={H - 8} textAnchor="end">
            {last.label}
          </text>
        ) : null}
      </g>
    </ChartFigure>
  );
}

export interface BarGroup {
  label: string;
  values: number[];
}

/** Grouped bars per month; `series` names each bar of a group (the legend, in words). */
export function BarChart({
  title,
  summary,
  series,
  groups,
  table,
}: {
  title: string;
  summary: string;
  series: { name: string; className: string }[];
  groups: BarGroup[];
  table: ReactNode;
}) {
  const max = niceMax(Math.max(0, ...groups.flatMap((g) => g.values)));
  const groupW = groups.length > 0 ? innerW / groups.length : innerW;
  const barW = Math.max(2, Math.min(24, (groupW * 0.8) / Math.max(1, series.length)));
  const legend = (
    <ul className="chart-legend">
      {series.map((s) => (
        <li key={s.name}>
          <svg viewBox="0 0 12 12" aria-hidden="true" className="chart-key">
            <rect width="12" height="12" className={s.className} />
          </svg>
          {s.name}
        </li>
      ))}
    </ul>
  );
  return (
    <ChartFigure title={title} summary={summary} table={table} legend={legend} quietTitle>
      <YAxis max={max} format={(v) => (Number.isInteger(v) ? String(v) : '')} />
      {groups.map((g, gi) => {
        const x0 = PAD.left + gi * groupW + (groupW - barW * series.length) / 2;
        return (
          <g key={g.label}>
            {g.values.map((v, si) => {
              const h = (v / max) * innerH;
              return (
                <rect
                  // biome-ignore lint/suspicious/noArrayIndexKey: one bar per series, in the series' order
                  key={si}
                  x={x0 + si * barW}
                  y={PAD.top + innerH - h}
                  width={barW - 1}
                  height={h}
                  className={series[si]?.className}
                />
              );
            })}
            {groups.length <= 13 || gi % Math.ceil(groups.length / 12) === 0 ? (
              <text x={PAD.left + gi * groupW + groupW / 2} y={H - 8} textAnchor="middle" className="chart-axis">
                {g.label}
              </text>
            ) : null}
          </g>
        );
      })}
    </ChartFigure>
  );
}

/** A single stacked bar of parts of a whole (trials: converted, still in trial, ended unpaid). */
export function StackChart({
  title,
  summary,
  parts,
  table,
}: {
  title: string;
  summary: string;
  parts: { name: string; value: number; className: string }[];
  table: ReactNode;
}) {
  const total = parts.reduce((sum, p) => sum + p.value, 0);
  let x = PAD.left;
  const legend = (
    <ul className="chart-legend">
      {parts.map((p) => (
        <li key={p.name}>
          <svg viewBox="0 0 12 12" aria-hidden="true" className="chart-key">
            <rect width="12" height="12" className={p.className} />
          </svg>
          {p.name}: {p.value}
        </li>
      ))}
    </ul>
  );
  return (
    <ChartFigure title={title} summary={summary} table={table} legend={legend} height={56} quietTitle>
      <rect x={PAD.left} y={8} width={innerW} height={40} className="chart-track" />
      {total > 0
        ? parts.map((p) => {
            const w = (p.value / total) * innerW;
            const rect = <rect key={p.name} x={x} y={8} width={w} height={40} className={p.className} />;
            x += w;
            return rect;
          })
        : null}
    </ChartFigure>
  );
}
