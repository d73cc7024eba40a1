/**
 * `npm run bench [-- <case…>]`: load-tests the real app on PostgreSQL against a bare Fastify
 * server that returns the same bytes. See bench/README.md.
 *
 * Exit code: 0 when every case ran without errors (missed targets are only reported), 1 when a
 * case crashed or saw connection errors, timeouts or non-2xx responses, 2 on bad usage.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { type Database, openDatabase } from '../src/platform/db/client.js';
import { migrate } from '../src/platform/db/migrate.js';
import { cases as allCases } from './cases/index.js';
import { compileServers } from './lib/compile.js';
import { createContext } from './lib/context.js';
import { cpuSnapshot, cpuUse } from './lib/cpu.js';
import { mixKey } from './lib/ipc.js';
import { runLoad, stopLoad, toWire, type WireMix, type WireRequest } from './lib/load.js';
import { dropDatabase, parseDatabaseUrl, recreateDatabase } from './lib/postgres.js';
import {
  type CaseResult,
  checkTargets,
  formatReport,
  type SideSummary,
  sideProblems,
  summarize,
} from './lib/report.js';
import { ServerProcess } from './lib/server-process.js';
import type { BenchCase, BenchContext } from './lib/types.js';

const PLATFORM_TOKEN = 'bench-platform-token-0123456789abcdef';
const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/commerce_bench';

const log = (message: string) => process.stderr.write(`${message}\n`);
const mb = (bytes: number) => (bytes / 1048576).toFixed(1);

function countLines(file: string): number {
  if (!existsSync(file)) return 0;
  const text = readFileSync(file, 'utf8');
  return text === '' ? 0 : text.split('\n').filter(Boolean).length;
}

function usage(): string {
  return [
    'usage: npm run bench [-- <case…>]',
    '',
    `cases: ${allCases.map((c) => c.name).join(', ')}`,
    "admin: the admin's first data render per screen in Chromium (scripts/admin-render-times.ts, also npm run bench:admin)",
    '',
    'env: BENCH_DATABASE_URL (default ' + DEFAULT_DATABASE_URL + ')',
    '     BENCH_DURATION=<s> (override every case), BENCH_WARMUP=<s>, BENCH_CONNECTIONS=<n>',
    '     BENCH_KEEP=1 (keep the database afterwards), BENCH_RUNTIME=tsx (servers under tsx, not transpiled)',
  ].join('\n');
}

function positiveNumber(name: string, integer = false): number | null {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return null;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0 || (integer && !Number.isInteger(n))) {
    log(`${name} must be a ${integer ? 'whole ' : ''}number ≥ 0 (got "${raw}")`);
    process.exit(2);
  }
  return n;
}

function selectCases(args: string[]): BenchCase[] {
  const names = new Set<string>();
  for (const c of allCases) {
    if (names.has(c.name)) throw new Error(`two cases are named "${c.name}"`);
    names.add(c.name);
  }
  if (args.length === 0) return allCases;
  const unknown = args.filter((a) => !names.has(a));
  if (unknown.length > 0) {
    log(`unknown case${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}\n\n${usage()}`);
    process.exit(2);
  }
  return allCases.filter((c) => args.includes(c.name));
}

function gitCommit(): string | null {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8', stdio: 'pipe' }).trim();
  } catch {
    return null;
  }
}

/** One plain request to learn the exact bytes, status and content-type of the response. */
async function probe(baseUrl: string, req: WireRequest) {
  const res = await fetch(baseUrl + req.path, { method: req.method, headers: req.headers, body: req.body });
  const body = Buffer.from(await res.arrayBuffer());
  return { status: res.status, contentType: res.headers.get('content-type') ?? '', body };
}

let interrupted = false;

const keyOf = (r: WireRequest) => mixKey(r.method, r.path, r.headers.origin);

/**
 * A mix: probes every distinct request of the sequence once (a few at a time), fails on any
 * non-2xx answer, and configures the bare server with each response. Returns the average body size.
 */
async function prepareMix(app: ServerProcess, bare: ServerProcess, sequence: WireRequest[]) {
  const distinct = new Map<string, WireRequest>();
  for (const r of sequence) {
    if (r.body !== undefined) throw new Error('a mix may only hold requests without a body');
    distinct.set(keyOf(r), r);
  }
  log(`  probing ${distinct.size} distinct requests of a sequence of ${sequence.length}`);
  const items = [...distinct.entries()];
  const responses: Awaited<ReturnType<typeof probe>>[] = new Array(items.length);
  let nextItem = 0;
  const worker = async () => {
    while (nextItem < items.length && !interrupted) {
      const i = nextItem++;
      const [, req] = items[i] as [string, WireRequest];
      const res = await probe(app.baseUrl, req);
      if (res.status < 200 || res.status > 299) {
        throw new Error(`${req.method} ${req.path} answered ${res.status}: ${res.body.toString('utf8').slice(0, 300)}`);
      }
      responses[i] = res;
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  if (interrupted) throw new Error('interrupted');
  await bare.configureMix(
    items.map(([key], i) => {
      const r = responses[i] as Awaited<ReturnType<typeof probe>>;
      return { key, status: r.status, contentType: r.contentType, bodyBase64: r.body.toString('base64') };
    }),
  );
  for (let i = 0; i < items.length; i += Math.max(1, Math.floor(items.length / 20))) {
    const expected = responses[i] as Awaited<ReturnType<typeof probe>>;
    const check = await probe(bare.baseUrl, (items[i] as [string, WireRequest])[1]);
    if (!check.body.equals(expected.body) || check.status !== expected.status) {
      throw new Error('the bare server does not return the same bytes as the app');
    }
  }
  // the average body on the wire over the sequence, as the servers will send it
  const sizes = new Map(
    items.map(([key], i) => [key, (responses[i] as Awaited<ReturnType<typeof probe>>).body.length]),
  );
  const total = sequence.reduce((sum, r) => sum + (sizes.get(keyOf(r)) ?? 0), 0);
  const first = responses[0] as Awaited<ReturnType<typeof probe>>;
  return {
    status: first.status,
    contentType: first.contentType,
    bodyBytes: Math.round(total / sequence.length),
    distinct: items.length,
  };
}

/** Runs load against `server` while sampling its RSS; returns the summary with the highest RSS seen. */
async function measure(
  server: ServerProcess,
  req: WireRequest | WireMix,
  connections: number,
  seconds: number,
): Promise<SideSummary> {
  let peak = 0;
  const sample = async () => {
    try {
      peak = Math.max(peak, (await server.memory()).rss);
    } catch {
      // a dead process shows up as errors in the load results
    }
  };
  const timer = setInterval(() => void sample(), 250);
  try {
    const before = cpuSnapshot(server.pid);
    const result = await runLoad(server.baseUrl, req, connections, seconds);
    const cpu = cpuUse(before, cpuSnapshot(server.pid), cpus().length);
    await sample();
    return summarize(result, peak > 0 ? peak : null, cpu);
  } finally {
    clearInterval(timer);
  }
}

async function runCase(
  c: BenchCase,
  ctx: BenchContext,
  database: Database,
  app: ServerProcess,
  bare: ServerProcess,
  overrides: { duration: number | null; warmup: number | null; connections: number | null },
): Promise<CaseResult> {
  const durationSeconds = overrides.duration ?? c.durationSeconds;
  const connections = overrides.connections ?? c.connections;
  const warmupSeconds = overrides.warmup ?? Math.min(2, Math.max(1, Math.round(durationSeconds / 5)));
  const result: CaseResult = {
    name: c.name,
    ...(c.description ? { description: c.description } : {}),
    connections,
    durationSeconds,
    warmupSeconds,
    request: { method: '', path: '' },
    response: null,
    app: null,
    bare: null,
    ratioToBare: null,
    targets: [],
    error: null,
  };
  try {
    log(`▶ ${c.name}: setup`);
    const spec = await c.setup(ctx);
    // Fresh planner statistics after the case's data loading, as autovacuum would eventually give.
    await database.db.execute(sql`ANALYZE`);
    if ('sequence' in spec) {
      const sequence = spec.sequence.map(toWire);
      const mixed = await prepareMix(app, bare, sequence);
      result.request = { method: 'MIX', path: `${sequence.length} requests, ${mixed.distinct} distinct` };
      result.response = { status: mixed.status, contentType: mixed.contentType, bodyBytes: mixed.bodyBytes };
      await spec.afterProbe?.();
      // each server walks the sequence from its start; its measurement continues after its warm-up
      const cursors = { app: { next: 0 }, bare: { next: 0 } };
      await measureBoth(c, result, app, bare, connections, durationSeconds, warmupSeconds, (side) => ({
        sequence,
        cursor: cursors[side],
      }));
      return finish(c, result);
    }
    const req = toWire(spec);
    result.request = { method: req.method, path: req.path };
    const first = await probe(app.baseUrl, req);
    result.response = { status: first.status, contentType: first.contentType, bodyBytes: first.body.length };
    if (first.status < 200 || first.status > 299) {
      throw new Error(
        `${req.method} ${req.path} answered ${first.status}: ${first.body.toString('utf8').slice(0, 500)}`,
      );
    }
    await bare.configure({
      status: first.status,
      contentType: first.contentType,
      bodyBase64: first.body.toString('base64'),
    });
    const check = await probe(bare.baseUrl, req);
    if (check.status !== first.status || !check.body.equals(first.body) || check.contentType !== first.contentType) {
      throw new Error('the bare server does not return the same bytes as the app');
    }

    await measureBoth(c, result, app, bare, connections, durationSeconds, warmupSeconds, () => req);
  } catch (err) {
    result.error = err instanceof Error ? err.message : String(err);
  }
  return finish(c, result);
}

function finish(_c: BenchCase, result: CaseResult): CaseResult {
  log(result.error ? `  ✗ ${result.error}` : '  done');
  return result;
}

/** Warm-up and measurement of the app, then of the bare server; ratio, targets and problems. */
async function measureBoth(
  c: BenchCase,
  result: CaseResult,
  app: ServerProcess,
  bare: ServerProcess,
  connections: number,
  durationSeconds: number,
  warmupSeconds: number,
  requestFor: (side: 'app' | 'bare') => WireRequest | WireMix,
) {
  try {
    for (const [label, server] of [
      ['app', app],
      ['bare', bare],
    ] as const) {
      const req = requestFor(label);
      if (interrupted) throw new Error('interrupted');
      if (warmupSeconds > 0) {
        log(`  ${label}: warm-up ${warmupSeconds} s`);
        await runLoad(server.baseUrl, req, connections, warmupSeconds);
      }
      if (interrupted) throw new Error('interrupted');
      log(
        `  ${label}: ${result.request.method} ${result.request.path}, ${connections} connections, ${durationSeconds} s`,
      );
      result[label] = await measure(server, req, connections, durationSeconds);
      if (!server.alive) throw new Error(`the ${label} server process died during the run`);
    }
    const appSide = result.app as SideSummary;
    const bareSide = result.bare as SideSummary;
    result.ratioToBare = bareSide.rps > 0 ? appSide.rps / bareSide.rps : null;
    result.targets = checkTargets(c.targets, appSide, result.ratioToBare);
    const problems = [...sideProblems('app', appSide), ...sideProblems('bare', bareSide)];
    if (problems.length > 0) result.error = problems.join('; ');
    if (interrupted) result.error = 'interrupted';
  } catch (err) {
    result.error = err instanceof Error ? err.message : String(err);
  }
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h') || args.includes('--list')) {
    log(usage());
    return 0;
  }
  // the admin's render times (issue 27) are a browser measurement, not a load test: its own script
  if (args[0] === 'admin') {
    execFileSync(process.execPath, ['--import', 'tsx', 'scripts/admin-render-times.ts'], { stdio: 'inherit' });
    return 0;
  }
  const selected = selectCases(args);
  const overrides = {
    duration: positiveNumber('BENCH_DURATION'),
    warmup: positiveNumber('BENCH_WARMUP'),
    connections: positiveNumber('BENCH_CONNECTIONS', true),
  };
  if (overrides.duration === 0 || overrides.connections === 0) {
    log('BENCH_DURATION and BENCH_CONNECTIONS must be above 0');
    return 2;
  }
  const target = parseDatabaseUrl(process.env.BENCH_DATABASE_URL || DEFAULT_DATABASE_URL);
  const keep = process.env.BENCH_KEEP === '1';
  const runtime = process.env.BENCH_RUNTIME === 'tsx' ? 'tsx' : 'node';

  let database: Database | null = null;
  let created = false;
  const servers: ServerProcess[] = [];
  const killAll = () => {
    for (const s of servers) s.killNow();
  };
  process.on('exit', killAll);
  // Ctrl-C reaches this process twice (from the terminal and relayed by tsx): a second signal
  // only forces the exit when it comes more than a second after the first.
  let firstSignal = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    interrupted = true;
    stopLoad();
    if (firstSignal === 0) {
      firstSignal = Date.now();
      log(`\n${signal}: stopping; cleaning up (send it again to exit at once)`);
    } else if (Date.now() - firstSignal > 1000) {
      killAll();
      process.exit(130);
    }
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  const results: CaseResult[] = [];
  const startedAt = new Date();
  const stamp = startedAt.toISOString().replace(/[:.]/g, '-');
  const resultsDir = fileURLToPath(new URL('./results/', import.meta.url));
  const appLog = join(resultsDir, `${stamp}.app.log`);
  let failed = false;
  try {
    mkdirSync(resultsDir, { recursive: true });
    log(`database: ${target.name} (recreating)`);
    const serverVersion = await recreateDatabase(target);
    created = true;
    database = await openDatabase({ url: target.url, dataDir: 'memory', poolSize: 5 });
    await migrate(database.db);

    const entries = [new URL('./lib/serve-app.ts', import.meta.url), new URL('./lib/serve-bare.ts', import.meta.url)];
    let scripts = entries.map((e) => fileURLToPath(e));
    if (runtime === 'node') {
      log('transpiling src/ and the servers to bench/results/.build');
      scripts = compileServers(join(resultsDir, '.build'), entries);
    }
    const [appScript, bareScript] = scripts as [string, string];

    const appEnv = {
      DATABASE_URL: target.url,
      PLATFORM_TOKEN,
      DEMO: '0',
      LOG_LEVEL: 'warn',
      CLOCK: 'real',
      NODE_ENV: 'production',
      MASTER_KEY: '0'.repeat(64),
      // the benchmark pays with the test provider on purpose
      ALLOW_TEST_PAYMENTS: '1',
      HOST: '127.0.0.1',
      PORT: '0',
      PUBLIC_URL: 'http://127.0.0.1',
      // the checkout case creates thousands of sessions a minute from one address and one key
      CHECKOUT_SESSION_RATE_LIMIT: '1000000',
      // the app's pool: its default (twice the cores, at least 4) unless set for the run
      ...(process.env.DATABASE_POOL_SIZE ? { DATABASE_POOL_SIZE: process.env.DATABASE_POOL_SIZE } : {}),
    };
    log(`starting the app and the bare server (${runtime === 'node' ? 'plain node' : 'node --import tsx'})`);
    const [app, bare] = await Promise.all([
      ServerProcess.start({
        label: 'app',
        script: appScript,
        env: { BENCH_APP_ENV: JSON.stringify(appEnv), NODE_ENV: 'production' },
        logFile: appLog,
      }),
      ServerProcess.start({ label: 'bare', script: bareScript, env: { NODE_ENV: 'production' } }),
    ]);
    servers.push(app, bare);
    const idleRss = await app.memory();
    log(`app: pid ${app.pid}, ${app.baseUrl}, idle RSS ${mb(idleRss.rss)} MB, log ${relative(process.cwd(), appLog)}`);
    log(`bare: pid ${bare.pid}, ${bare.baseUrl}`);

    const ctx = createContext({ baseUrl: app.baseUrl, platformToken: PLATFORM_TOKEN, db: database.db, log });
    for (const c of selected) {
      if (interrupted) break;
      results.push(await runCase(c, ctx, database, app, bare, overrides));
    }
    const appMemory = await app.memory().catch(() => null);
    const appHeap = await app.heapUsed().catch(() => null);

    process.stdout.write(`\n${formatReport(results)}\n\n`);
    process.stdout.write(`app process RSS: idle ${mb(idleRss.rss)} MB at start`);
    if (appMemory?.peakRss) process.stdout.write(`, peak ${mb(appMemory.peakRss)} MB over the run (VmHWM)`);
    if (appHeap !== null) process.stdout.write(`; V8 heap in use at the end ${mb(appHeap)} MB`);
    process.stdout.write('\n');
    const logLines = countLines(appLog);
    if (logLines === 0) rmSync(appLog, { force: true });
    else {
      process.stdout.write(
        `app log: ${logLines} line(s) at level warn or above in ${relative(process.cwd(), appLog)}\n`,
      );
    }

    const report = {
      startedAt: startedAt.toISOString(),
      commit: gitCommit(),
      node: process.version,
      runtime,
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model ?? null,
      totalMemMb: Math.round(totalmem() / 1048576),
      postgres: serverVersion,
      database: target.name,
      app: {
        idleRssMb: idleRss.rss / 1048576,
        peakRssMb: appMemory?.peakRss ? appMemory.peakRss / 1048576 : null,
        logLines,
      },
      cases: results,
    };
    const file = join(resultsDir, `${stamp}.json`);
    writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
    process.stdout.write(`results: ${relative(process.cwd(), file)}\n`);
    failed = results.some((r) => r.error !== null) || interrupted;
  } catch (err) {
    log(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    failed = true;
  } finally {
    await Promise.all(servers.map((s) => s.stop().catch(() => s.killNow())));
    await database?.close().catch(() => {});
    if (created && !keep) {
      await dropDatabase(target).catch((err) => log(`could not drop ${target.name}: ${String(err)}`));
    } else if (created) {
      log(`kept database ${target.name} (BENCH_KEEP=1)`);
    }
  }
  const missed = results.flatMap((r) => r.targets.filter((t) => !t.passed));
  if (missed.length > 0) log(`${missed.length} target(s) MISSED (reported only; the exit code ignores targets)`);
  return failed ? 1 : 0;
}

process.exitCode = await main();
// Everything is closed by now; should a handle still be open, do not hang the shell.
setTimeout(() => {
  log('bench: something kept the process alive after cleanup; exiting');
  process.exit(process.exitCode ?? 1);
}, 5_000).unref();
