/**
 * EU VIES VAT number check over its REST service (`VIES_API_URL`, default the public service
 * base): `POST {base}/check-vat-number` with `{countryCode, vatNumber}` answers
 * `{valid, name?, address?, requestDate}`. One attempt with a short timeout: the check runs while
 * a buyer waits for a price, and an unreachable service is decided by the shop's setting.
 */

export interface ViesResult {
  valid: boolean;
  name: string | null;
  address: string | null;
  /** VIES's requestDate as it sent it. */
  requestDate: string | null;
}

export class ViesUnavailableError extends Error {
  override name = 'ViesUnavailableError';
}

export interface ViesClient {
  /** Checks a VAT ID (country prefix + number); throws ViesUnavailableError when VIES cannot answer. */
  check(countryCode: string, vatNumber: string): Promise<ViesResult>;
}

export interface ViesOptions {
  baseUrl: string;
  /** Per request, default 5 s. */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' && v !== '---' ? v : null);

export function createViesClient(opts: ViesOptions): ViesClient {
  const doFetch = opts.fetch ?? fetch;
  const base = opts.baseUrl.replace(/\/+$/, '');
  return {
    async check(countryCode, vatNumber) {
      let res: Response;
      try {
        res = await doFetch(`${base}/check-vat-number`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify({ countryCode, vatNumber }),
          signal: AbortSignal.timeout(opts.timeoutMs ?? 5000),
        });
      } catch (err) {
        throw new ViesUnavailableError(`VIES not reachable: ${err instanceof Error ? err.message : String(err)}`);
      }
      let body: Record<string, unknown> | null = null;
      try {
        body = (await res.json()) as Record<string, unknown>;
      } catch {
        body = null;
      }
      // VIES reports its own outages (MS_UNAVAILABLE, TIMEOUT, …) as errors without `valid`
      if (!res.ok || !body || typeof body.valid !== 'boolean') {
        throw new ViesUnavailableError(`VIES answered ${res.status} without a result`);
      }
      return {
        valid: body.valid,
        name: text(body.name),
        address: text(body.address),
        requestDate: text(body.requestDate),
      };
    },
  };
}
