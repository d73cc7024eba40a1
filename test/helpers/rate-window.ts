/**
 * Fixed-window rate limits (platform/http/rate-limit.ts) are aligned to multiples of their length
 * on the wall clock: a test that counts requests against one must not straddle two windows, or
 * its last request lands in a fresh window and is not refused. Start such a test well inside one.
 */
export async function awayFromWindowEdge(windowSeconds: number, marginSeconds: number): Promise<void> {
  const left = windowSeconds * 1000 - (Date.now() % (windowSeconds * 1000));
  if (left < marginSeconds * 1000) await new Promise((r) => setTimeout(r, left + 50));
}
