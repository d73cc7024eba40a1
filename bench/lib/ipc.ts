/**
 * Messages between the harness and its server processes (serve-app.ts, serve-bare.ts), sent over
 * the Node IPC channel of `child_process.spawn`.
 */

export interface BareResponse {
  status: number;
  contentType: string;
  /** The exact response body, base64. */
  bodyBase64: string;
}

/** One response of a mix, with the key the bare server finds it by (see `mixKey`). */
export interface MixResponse extends BareResponse {
  key: string;
}

/** How the bare server finds the response of a mix request: method, path with query, Origin. */
export function mixKey(method: string, path: string, origin: string | undefined): string {
  return `${method} ${path}\u0000${origin ?? ''}`;
}

export type ToChild =
  | { type: 'stats'; id: number }
  | { type: 'configure-mix'; id: number; reset: boolean; responses: MixResponse[] }
  | { type: 'configure'; id: number; response: BareResponse }
  | { type: 'shutdown' };

export type FromChild =
  | { type: 'listening'; port: number }
  | { type: 'stats'; id: number; rss: number; heapUsed: number }
  | { type: 'configured'; id: number }
  | { type: 'failed'; message: string };

/** Child side: reports the port, answers stats requests, and closes on `shutdown` or when the parent goes away. */
export function runChild(opts: {
  port: number;
  close: () => Promise<void>;
  onMessage?: (msg: ToChild, reply: (m: FromChild) => void) => void;
}): void {
  const send = (m: FromChild) => process.send?.(m);
  let closing = false;
  const shutdown = async () => {
    if (closing) return;
    closing = true;
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    try {
      await opts.close();
      process.exit(0);
    } catch (err) {
      process.stderr.write(`close failed: ${String(err)}\n`);
      process.exit(1);
    }
  };
  process.on('message', (msg: ToChild) => {
    if (msg.type === 'shutdown') void shutdown();
    else if (msg.type === 'stats') {
      const mem = process.memoryUsage();
      send({ type: 'stats', id: msg.id, rss: mem.rss, heapUsed: mem.heapUsed });
    } else opts.onMessage?.(msg, send);
  });
  // The harness died or closed the channel: never linger as an orphan.
  process.on('disconnect', () => void shutdown());
  process.on('SIGTERM', () => void shutdown());
  // Ctrl-C in a terminal reaches the whole process group: leave it to the harness, which stops
  // the load first and then sends `shutdown`.
  process.on('SIGINT', () => {});
  send({ type: 'listening', port: opts.port });
}

/** Child side: reports a start-up failure and exits. */
export function failChild(err: unknown): never {
  const message = err instanceof Error ? (err.stack ?? err.message) : String(err);
  process.stderr.write(`${message}\n`);
  process.send?.({ type: 'failed', message } satisfies FromChild);
  process.exit(1);
}
