/** Turns autocannon results into the per-case summary, checks the targets, prints the table. */
import type { CpuUse } from './cpu.js';
import type { AutocannonResult } from './load.js';
import type { Targets } from './types.js';

const MB = 1024 * 1024;

export interface SideSummary {
  /** Completed requests per second over the measured window. */
  rps: number;
  requests: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number; mean: number };
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodes: Record<string, number>;
  /** Bytes on the wire per response (status line, headers and body). */
  wireBytesPerResponse: number;
  /** RSS of the server process: highest sample during the measured window, MB. */
  rssMb: number | null;
  /** CPU cores used during the measured window: server, load generator, rest of the machine. */
  cpu: CpuUse | null;
}

export interface TargetCheck {
  name: keyof Targets;
  label: string;
  expected: number;
  actual: number | null;
  passed: boolean;
}

export interface CaseResult {
  name: string;
  description?: string;
  connections: number;
  durationSeconds: number;
  warmupSeconds: number;
  request: { method: string; path: string };
  response: { status: number; contentType: string; bodyBytes: number } | null;
  app: SideSummary | null;
  bare: SideSummary | null;
  ratioToBare: number | null;
  targets: TargetCheck[];
  /** Set when the case could not be measured or saw errors / non-2xx responses. */
  error: string | null;
}

export function summarize(r: AutocannonResult, rssBytes: number | null, cpu: CpuUse | null): SideSummary {
  const completed = r.requests.total;
  const statusCodes: Record<string, number> = {};
  for (const [code, s] of Object.entries(r.statusCodeStats ?? {})) statusCodes[code] = s.count;
  return {
    rps: r.duration > 0 ? completed / r.duration : 0,
    requests: completed,
    latencyMs: {
      p50: r.latency.p50,
      p90: r.latency.p90,
      p99: r.latency.p99,
      max: r.latency.max,
      mean: r.latency.mean,
    },
    errors: r.errors,
    timeouts: r.timeouts,
    non2xx: r.non2xx,
    statusCodes,
    wireBytesPerResponse: completed > 0 ? Math.round(r.throughput.total / completed) : 0,
    rssMb: rssBytes === null ? null : rssBytes / MB,
    cpu,
  };
}

/** Errors that make the run fail: connection errors, timeouts, non-2xx responses. */
export function sideProblems(label: string, s: SideSummary): string[] {
  const out: string[] = [];
  if (s.errors > 0) out.push(`${label}: ${s.errors} connection errors`);
  if (s.timeouts > 0) out.push(`${label}: ${s.timeouts} timeouts`);
  if (s.non2xx > 0) {
    const codes = Object.entries(s.statusCodes)
      .filter(([c]) => !c.startsWith('2'))
      .map(([c, n]) => `${n}× ${c}`)
      .join(', ');
    out.push(`${label}: ${s.non2xx} non-2xx responses (${codes})`);
  }
  if (s.requests === 0) out.push(`${label}: no request completed`);
  return out;
}

export function checkTargets(targets: Targets | undefined, app: SideSummary, ratio: number | null): TargetCheck[] {
  if (!targets) return [];
  const out: TargetCheck[] = [];
  if (targets.p99Ms !== undefined) {
    const actual = app.latencyMs.p99;
    out.push({ name: 'p99Ms', label: 'p99 ≤', expected: targets.p99Ms, actual, passed: actual <= targets.p99Ms });
  }
  if (targets.minRps !== undefined) {
    const actual = app.rps;
    out.push({ name: 'minRps', label: 'req/s ≥', expected: targets.minRps, actual, passed: actual >= targets.minRps });
  }
  if (targets.minRatioToBare !== undefined) {
    out.push({
      name: 'minRatioToBare',
      label: 'app/bare ≥',
      expected: targets.minRatioToBare,
      actual: ratio,
      passed: ratio !== null && ratio >= targets.minRatioToBare,
    });
  }
  if (targets.maxRssMb !== undefined) {
    const actual = app.rssMb;
    out.push({
      name: 'maxRssMb',
      label: 'RSS MB ≤',
      expected: targets.maxRssMb,
      actual,
      passed: actual !== null && actual <= targets.maxRssMb,
    });
  }
  return out;
}

const fmt = (n: number | null | undefined, digits = 0) =>
  n === null || n === undefined || Number.isNaN(n)
    ? '–'
    : n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

function table(header: string[], rows: string[][], rightAligned: Set<number>): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (rightAligned.has(i) ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

export function formatReport(results: CaseResult[]): string {
  const header = [
    'case',
    'server',
    'req/s',
    'p50 ms',
    'p99 ms',
    'max ms',
    'err/non-2xx',
    'body B',
    'wire B',
    'app/bare',
    'RSS MB',
    'CPU srv/gen/rest',
  ];
  const rows: string[][] = [];
  for (const c of results) {
    const sides: ['app' | 'bare', SideSummary | null][] = [
      ['app', c.app],
      ['bare', c.bare],
    ];
    for (const [label, s] of sides) {
      if (!s) {
        if (label === 'app') rows.push([c.name, label, 'failed', '', '', '', '', '', '', '', '', '']);
        continue;
      }
      rows.push([
        label === 'app' ? c.name : '',
        label,
        fmt(s.rps),
        fmt(s.latencyMs.p50, 1),
        fmt(s.latencyMs.p99, 1),
        fmt(s.latencyMs.max, 0),
        `${s.errors + s.timeouts}/${s.non2xx}`,
        fmt(c.response?.bodyBytes),
        fmt(s.wireBytesPerResponse),
        label === 'app' ? fmt(c.ratioToBare, 2) : '',
        fmt(s.rssMb, 1),
        s.cpu ? [s.cpu.server, s.cpu.loadGenerator, s.cpu.rest].map((n) => fmt(n, 2)).join('/') : '–',
      ]);
    }
  }
  const out = [table(header, rows, new Set([2, 3, 4, 5, 6, 7, 8, 9, 10, 11]))];

  const targetLines: string[] = [];
  for (const c of results) {
    if (c.targets.length === 0) {
      targetLines.push(`  ${c.name}: no targets`);
      continue;
    }
    const parts = c.targets.map((t) => {
      const digits = t.name === 'minRatioToBare' ? 2 : t.name === 'p99Ms' || t.name === 'maxRssMb' ? 1 : 0;
      return `${t.passed ? 'PASS' : 'MISSED'} ${t.label} ${fmt(t.expected, digits)} (${fmt(t.actual, digits)})`;
    });
    targetLines.push(`  ${c.name}: ${parts.join('; ')}`);
  }
  out.push('', 'Targets:', ...targetLines);

  const errors = results.filter((c) => c.error);
  if (errors.length > 0) {
    out.push('', 'ERRORS:');
    for (const c of errors) out.push(`  ${c.name}: ${c.error}`);
  }
  return out.join('\n');
}
