/**
 * The worker loop: polls for due jobs, runs the registered handler for each, and records the
 * outcome. Any number of workers (threads of one process or many processes) can run at once.
 */
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.js';
import type { Db } from '../db/client.js';
import { backoffMs, claim, complete, fail, type JobRow, renewLeases } from './queue.js';

export interface JobContext {
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  job: JobRow;
}

export interface JobHandler {
  run(payload: Record<string, unknown>, ctx: JobContext): Promise<void>;
  /** Delay before the next attempt; default exponential from 10 s. */
  retryDelayMs?(attempts: number): number;
}

export class JobRegistry {
  private readonly handlers = new Map<string, JobHandler>();

  register(type: string, handler: JobHandler): void {
    if (this.handlers.has(type)) throw new Error(`job type ${type} registered twice`);
    this.handlers.set(type, handler);
  }

  get(type: string): JobHandler | undefined {
    return this.handlers.get(type);
  }
}

export interface WorkerOptions {
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  registry: JobRegistry;
  pollMs: number;
  batchSize?: number;
  /** How long a claim holds without renewal (default 20 s; renewed every quarter of it while running). */
  leaseSeconds?: number;
  id?: string;
}

let workerCounter = 0;

/** A claimed job whose process died is taken over after at most this (plus one poll). */
export const DEFAULT_LEASE_SECONDS = 20;

export class Worker {
  readonly id: string;
  private running = false;
  private timer: NodeJS.Timeout | null = null;
  private current: Promise<unknown> | null = null;

  constructor(private readonly opts: WorkerOptions) {
    this.id = opts.id ?? `${hostname()}:${process.pid}:${++workerCounter}`;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.schedule(0);
  }

  private schedule(ms: number): void {
    if (!this.running) return;
    this.timer = setTimeout(() => {
      this.current = this.tick()
        .catch((err) => this.opts.log.error({ err }, 'worker tick failed'))
        .then((n) => this.schedule(typeof n === 'number' && n > 0 ? 0 : this.opts.pollMs));
    }, ms);
    this.timer.unref();
  }

  /** Claims and runs one batch; returns how many jobs ran. */
  async tick(): Promise<number> {
    const { db, clock, log } = this.opts;
    await clock.refresh(db);
    const leaseSeconds = this.opts.leaseSeconds ?? DEFAULT_LEASE_SECONDS;
    const batch = await claim(db, this.id, clock.now(), this.opts.batchSize ?? 10, leaseSeconds);
    if (batch.length === 0) return 0;
    // heartbeat: the claim stays ours while this process lives, and expires soon after it dies
    const heartbeat = setInterval(
      () => {
        renewLeases(db, this.id, leaseSeconds).catch((err) => log.warn({ err }, 'job lease renewal failed'));
      },
      (leaseSeconds * 1000) / 4,
    );
    heartbeat.unref();
    try {
      await this.runBatch(batch);
    } finally {
      clearInterval(heartbeat);
    }
    return batch.length;
  }

  private async runBatch(batch: JobRow[]): Promise<void> {
    const { db, clock, log, registry } = this.opts;
    for (const job of batch) {
      const handler = registry.get(job.type);
      try {
        if (!handler) throw new Error(`no handler for job type ${job.type}`);
        await handler.run(job.payload, { db, clock, log: log.child({ job: job.id, type: job.type }), job });
        await complete(db, job, this.id);
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        const delay = handler?.retryDelayMs?.(job.attempts) ?? backoffMs(job.attempts);
        const outcome = await fail(db, job, this.id, message, clock.now(), delay);
        log.warn({ job: job.id, type: job.type, attempts: job.attempts, outcome, err: message }, 'job failed');
      }
    }
  }

  /** Runs batches until nothing is due (tests and the clock-advance route use it). */
  async drain(maxBatches = 100): Promise<number> {
    let total = 0;
    for (let i = 0; i < maxBatches; i++) {
      const n = await this.tick();
      total += n;
      if (n === 0) break;
    }
    return total;
  }

  /** Stops polling and waits for the batch in progress. */
  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    await this.current;
  }
}
