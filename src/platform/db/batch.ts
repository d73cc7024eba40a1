/**
 * Coalesces lookups of the hottest read (one row per key) into one query per event-loop turn.
 *
 * Exactness: a batch is sent in the `check` phase after every request that joined it was
 * received, and a request that arrives while a batch is in flight joins the next one. So each
 * caller still gets a read that started after its request arrived: it sees every commit that
 * happened before — the same guarantee as one query per request, with fewer round trips under
 * load (concurrent storefront requests share one).
 */
export class BatchLoader<K, V> {
  private pending: Map<K, { resolve: (v: V | undefined) => void; reject: (e: unknown) => void }[]> | null = null;

  constructor(private readonly fetch: (keys: K[]) => Promise<Map<K, V>>) {}

  load(key: K): Promise<V | undefined> {
    if (!this.pending) {
      this.pending = new Map();
      setImmediate(() => this.flush());
    }
    const pending = this.pending;
    return new Promise((resolve, reject) => {
      const waiters = pending.get(key);
      if (waiters) waiters.push({ resolve, reject });
      else pending.set(key, [{ resolve, reject }]);
    });
  }

  private flush(): void {
    const batch = this.pending;
    this.pending = null;
    if (!batch) return;
    this.fetch([...batch.keys()]).then(
      (found) => {
        for (const [key, waiters] of batch) for (const w of waiters) w.resolve(found.get(key));
      },
      (err) => {
        for (const waiters of batch.values()) for (const w of waiters) w.reject(err);
      },
    );
  }
}
