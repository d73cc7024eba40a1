/** Harness side of a server process: spawn, wait for its port, query it over IPC, stop it. */
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import type { BareResponse, FromChild, MixResponse, ToChild } from './ipc.js';

/** The node flags of `npm start` (package.json `config.nodeFlags`), so the bench measures them. */
function appNodeFlags(): string[] {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    config?: { nodeFlags?: string };
  };
  return (pkg.config?.nodeFlags ?? '').split(/\s+/).filter(Boolean);
}

export interface MemorySample {
  /** Resident set size now, bytes. */
  rss: number;
  /** The highest RSS the process has had since it started (VmHWM), bytes; null when unknown. */
  peakRss: number | null;
}

/** Reads VmRSS / VmHWM from /proc (Linux); null elsewhere. */
function procMemory(pid: number): MemorySample | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key: string) => {
      const m = new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status);
      return m?.[1] ? Number(m[1]) * 1024 : null;
    };
    const rss = kb('VmRSS');
    return rss === null ? null : { rss, peakRss: kb('VmHWM') };
  } catch {
    return null;
  }
}

function tail(file: string, lines = 20): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

export class ServerProcess {
  readonly port: number;
  readonly baseUrl: string;
  private nextId = 1;
  private exited: Promise<number | null>;
  private hasExited = false;

  private constructor(
    readonly label: string,
    private readonly child: ChildProcess,
    port: number,
    exited: Promise<number | null>,
  ) {
    this.port = port;
    this.baseUrl = `http://127.0.0.1:${port}`;
    this.exited = exited.then((code) => {
      this.hasExited = true;
      return code;
    });
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  get alive(): boolean {
    return !this.hasExited;
  }

  /**
   * Starts `node <script>` (`.js`) or `node --import tsx <script>` (`.ts`) and resolves once it
   * listens. Its stdout and stderr go to `logFile` when given, else to the harness's.
   */
  static async start(opts: {
    label: string;
    script: string;
    env: Record<string, string>;
    logFile?: string;
    timeoutMs?: number;
  }) {
    const { label, script, env, logFile, timeoutMs = 60_000 } = opts;
    const args = script.endsWith('.ts') ? ['--import', 'tsx', script] : [script];
    if (label === 'app') {
      // the node flags `npm start` runs the service with (package.json config.nodeFlags)
      // BENCH_NODE_FLAGS: extra node flags for the app (after npm start's, so they win), to try settings
      const extra = (process.env.BENCH_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean);
      args.unshift(...appNodeFlags(), ...extra);
      // BENCH_CPU_PROF=<dir>: the app writes a V8 CPU profile there when it stops
      const profDir = process.env.BENCH_CPU_PROF;
      if (profDir) args.unshift('--cpu-prof', `--cpu-prof-dir=${profDir}`);
    }
    const out = logFile ? openSync(logFile, 'a') : 'inherit';
    const child = spawn(process.execPath, args, {
      env: { ...process.env, ...env },
      stdio: ['ignore', out, out, 'ipc'],
    });
    if (typeof out === 'number') closeSync(out);
    // A send on a closed channel is reported as an 'error' event; never let it crash the harness.
    child.on('error', () => {});
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`${label} did not start within ${timeoutMs} ms`));
      }, timeoutMs);
      const done = (fn: () => void) => {
        clearTimeout(timer);
        child.off('message', onMessage);
        child.off('exit', onExit);
        child.off('error', onError);
        fn();
      };
      const onMessage = (msg: FromChild) => {
        if (msg.type === 'listening') done(() => resolve(msg.port));
        else if (msg.type === 'failed') done(() => reject(new Error(`${label} failed to start:\n${msg.message}`)));
      };
      const onExit = (code: number | null) =>
        done(() => {
          const output = logFile ? tail(logFile) : '';
          reject(new Error(`${label} exited (${code}) before listening${output ? `:\n${output}` : ''}`));
        });
      const onError = (err: Error) => done(() => reject(err));
      child.on('message', onMessage);
      child.once('exit', onExit);
      child.once('error', onError);
    });
    return new ServerProcess(label, child, port, exited);
  }

  private request<T extends FromChild>(msg: ToChild & { id: number }, type: T['type'], timeoutMs = 10_000): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (this.hasExited || !this.child.connected) {
        reject(new Error(`${this.label} is not running`));
        return;
      }
      const timer = setTimeout(() => {
        this.child.off('message', onMessage);
        reject(new Error(`${this.label} did not answer "${msg.type}"`));
      }, timeoutMs);
      const onMessage = (m: FromChild) => {
        if (m.type === type && 'id' in m && m.id === msg.id) {
          clearTimeout(timer);
          this.child.off('message', onMessage);
          resolve(m as T);
        }
      };
      this.child.on('message', onMessage);
      this.child.send(msg, (err) => {
        if (!err) return;
        clearTimeout(timer);
        this.child.off('message', onMessage);
        reject(err);
      });
    });
  }

  /** The process's memory: from /proc when available, else as the process reports it. */
  async memory(): Promise<MemorySample> {
    const fromProc = this.child.pid ? procMemory(this.child.pid) : null;
    if (fromProc) return fromProc;
    const stats = await this.request<Extract<FromChild, { type: 'stats' }>>(
      { type: 'stats', id: this.nextId++ },
      'stats',
    );
    return { rss: stats.rss, peakRss: null };
  }

  /** The V8 heap in use now, as the process reports it (live objects plus garbage not yet collected). */
  async heapUsed(): Promise<number> {
    const stats = await this.request<Extract<FromChild, { type: 'stats' }>>(
      { type: 'stats', id: this.nextId++ },
      'stats',
    );
    return stats.heapUsed;
  }

  /** Bare server only: serve these bytes from now on. */
  async configure(response: BareResponse): Promise<void> {
    await this.request({ type: 'configure', id: this.nextId++, response }, 'configured');
  }

  /** Bare server only: answer each request of a mix with its own bytes (sent in chunks). */
  async configureMix(responses: MixResponse[]): Promise<void> {
    const CHUNK = 500;
    for (let i = 0; i < responses.length; i += CHUNK) {
      await this.request(
        { type: 'configure-mix', id: this.nextId++, reset: i === 0, responses: responses.slice(i, i + CHUNK) },
        'configured',
      );
    }
  }

  /** Asks the process to close (drain, close pools) and kills it if it takes too long. */
  async stop(graceMs = 10_000): Promise<void> {
    if (this.hasExited) return;
    if (this.child.connected) this.child.send({ type: 'shutdown' } satisfies ToChild);
    else this.child.kill('SIGTERM');
    const timer = setTimeout(() => {
      if (!this.hasExited) this.child.kill('SIGKILL');
    }, graceMs);
    await this.exited;
    clearTimeout(timer);
  }

  /** Last resort on the way out (synchronous; for process exit handlers). */
  killNow(): void {
    if (!this.hasExited) this.child.kill('SIGKILL');
  }
}
