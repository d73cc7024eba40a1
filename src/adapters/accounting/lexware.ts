/**
 * Lexware Office public API client (formerly lexoffice; `https://api.lexware.io`, configurable
 * with LEXWARE_API_URL). Authentication is `Authorization: Bearer <api key>`. Used endpoints:
 * `GET /v1/profile` (connection check), `GET /v1/vouchers?voucherNumber=…` (exact lookup by
 * voucher number; deprecated in favour of voucherlist, which has no exact number filter) and
 * `POST /v1/vouchers` (bookkeeping vouchers of type `salesinvoice` / `salescreditnote` with gross
 * amounts per tax rate). Every call has a timeout; 429 and 5xx (and network errors) are retried
 * with exponential backoff, honouring Retry-After.
 *
 * Voucher creation is idempotent by voucher number (Lexware has no idempotency key): before the
 * POST the number is looked up, and an existing voucher of the same type and amount is returned
 * instead of booking again (another amount is a non-retryable error). A POST is retried as is only
 * after 429 (Lexware did not perform it); after a timeout, network error or 5xx it may have been
 * performed, so the next attempt looks the number up first.
 *
 * Each voucher item is booked in the posting category of its VAT category (the UStVA reports
 * intra-community supplies, exports and services not taxable in Germany in their own lines): the
 * fixed category ids Lexware's API documentation lists for sales vouchers, the same in every
 * account. A category Lexware refuses fails the sync with Lexware's own error (nothing is booked in
 * a wrong category); the retry books it once the category is enabled.
 */
import {
  type AccountingClient,
  AccountingError,
  type AccountingProfile,
  type AccountingVoucher,
  type VatCategory,
} from './port.js';

/** Lexware's revenue posting category "Warenverkäufe" (sales of goods), for taxable supplies. */
export const REVENUE_CATEGORY_ID = '8f8664a8-fd86-11e1-a21f-0800200c9a66';

/**
 * The revenue posting category of each VAT category: the fixed ids Lexware's API documentation
 * lists for `salesinvoice`/`salescreditnote` (docs/finance.md "Accounting integration").
 */
export const POSTING_CATEGORIES: Record<VatCategory, { id: string; name: string }> = {
  S: { id: REVENUE_CATEGORY_ID, name: 'Warenverkäufe' },
  Z: { id: REVENUE_CATEGORY_ID, name: 'Warenverkäufe' },
  K: { id: '9075a4e3-66de-4795-a016-3889feca0d20', name: 'Innergemeinschaftliche Lieferung' },
  AE: { id: '380a20cb-d04c-426e-b49c-84c22adfa362', name: 'Fremdleistungen §13b' },
  G: { id: '93d24c20-ea84-424e-a731-5e1b78d1e6a9', name: 'Ausfuhrlieferungen an Drittländer' },
  O: { id: 'ef5b1a6e-f690-4004-9a19-91276348894f', name: 'Dienstleistungen an Drittländer' },
};

export interface LexwareOptions {
  baseUrl: string;
  apiKey: string;
  /** Per request, default 10 s. */
  timeoutMs?: number;
  /** Attempts per call including the first, default 3. */
  attempts?: number;
  /** First backoff delay, doubled per retry (default 500 ms); Retry-After wins, capped at 10 s. */
  backoffMs?: number;
  fetch?: typeof fetch;
}

const MAX_RETRY_AFTER_MS = 10_000;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

const amount = (cents: number) => Math.round(cents) / 100;

/** A provider amount in cents, without its sign (credit notes may be reported negative); null when not a number. */
const cents = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? Math.round(Math.abs(value) * 100) : null;

type VoucherType = 'salesinvoice' | 'salescreditnote';

/** An entry of `GET /v1/vouchers?voucherNumber=…` (the fields used here). */
export interface FoundVoucher {
  id: string;
  type: string;
  voucherNumber: string;
  voucherStatus?: string;
  totalGrossAmount?: number;
}

type Outcome<T> = { ok: true; value: T } | { ok: false; error: AccountingError; retryAfterMs: number | null };

/** Lexware wants `yyyy-MM-ddTHH:mm:ss.SSSXXX`; a calendar date is sent as midnight in Germany. */
function lexDate(date: string): string {
  return `${date}T00:00:00.000+01:00`;
}

/** The provider's error text from either of its error formats (IssueList, or message/details). */
function errorText(status: number, body: string): string {
  try {
    const json = JSON.parse(body) as {
      message?: string;
      error?: string;
      details?: { field?: string; message?: string; violation?: string }[];
      IssueList?: { i18nKey?: string; source?: string; type?: string }[];
    };
    if (Array.isArray(json.IssueList) && json.IssueList.length > 0) {
      return json.IssueList.map((i) => [i.type, i.i18nKey, i.source].filter(Boolean).join(' ')).join('; ');
    }
    const details = (json.details ?? []).map((d) => `${d.field ?? ''}: ${d.message ?? d.violation ?? ''}`);
    const head = json.message ?? json.error ?? `HTTP ${status}`;
    return details.length > 0 ? `${head} (${details.join('; ')})` : head;
  } catch {
    return body.trim().slice(0, 300) || `HTTP ${status}`;
  }
}

export class LexwareClient implements AccountingClient {
  private readonly base: string;
  private readonly timeoutMs: number;
  private readonly attempts: number;
  private readonly backoffMs: number;
  private readonly doFetch: typeof fetch;

  constructor(private readonly opts: LexwareOptions) {
    this.base = opts.baseUrl.replace(/\/+$/, '');
    this.timeoutMs = opts.timeoutMs ?? 10_000;
    this.attempts = Math.max(1, opts.attempts ?? 3);
    this.backoffMs = opts.backoffMs ?? 500;
    this.doFetch = opts.fetch ?? fetch;
  }

  /** One HTTP call: the parsed body, or the error with the provider's Retry-After (ms) if any. */
  private async once<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Outcome<T>> {
    let res: Response;
    try {
      res = await this.doFetch(`${this.base}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${this.opts.apiKey}`,
          accept: 'application/json',
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (err) {
      const timeout = (err as Error)?.name === 'TimeoutError';
      const message = timeout
        ? `Lexware did not answer within ${this.timeoutMs} ms`
        : `Lexware is unreachable: ${(err as Error).message}`;
      return { ok: false, error: new AccountingError(message, null, true), retryAfterMs: null };
    }
    let text: string;
    try {
      text = await res.text();
    } catch (err) {
      const message = `Lexware's answer broke off: ${(err as Error).message}`;
      return { ok: false, error: new AccountingError(message, res.status, true), retryAfterMs: null };
    }
    if (res.ok) {
      try {
        return { ok: true, value: (text ? JSON.parse(text) : {}) as T };
      } catch {
        // a proxy's HTML page or a cut body: an outage to retry, never a crash of the caller
        const message = `Lexware ${res.status} answered with a body that is not JSON: ${text.trim().slice(0, 120)}`;
        return { ok: false, error: new AccountingError(message, res.status, true), retryAfterMs: null };
      }
    }
    const retryable = res.status === 429 || res.status >= 500;
    const after = Number(res.headers.get('retry-after') ?? Number.NaN);
    return {
      ok: false,
      error: new AccountingError(`Lexware ${res.status}: ${errorText(res.status, text)}`, res.status, retryable),
      retryAfterMs: Number.isFinite(after) && after >= 0 ? after * 1000 : null,
    };
  }

  /** The wait before attempt `attempt + 1`: Retry-After, else exponential backoff; capped. */
  private pause(attempt: number, retryAfterMs: number | null): Promise<void> {
    const wait = retryAfterMs ?? this.backoffMs * 2 ** (attempt - 1);
    return sleep(Math.min(wait, MAX_RETRY_AFTER_MS));
  }

  /** A GET retried after timeouts, network errors, 429 and 5xx (a POST goes through `createVoucher`'s loop). */
  private async request<T>(method: 'GET', path: string): Promise<T> {
    let last: AccountingError | null = null;
    for (let attempt = 1; attempt <= this.attempts; attempt++) {
      const r = await this.once<T>(method, path);
      if (r.ok) return r.value;
      last = r.error;
      if (!last.retryable || attempt === this.attempts) break;
      await this.pause(attempt, r.retryAfterMs);
    }
    throw last ?? new AccountingError('Lexware call failed', null, true);
  }

  async testConnection(): Promise<AccountingProfile> {
    const p = await this.request<{ organizationId?: string; companyName?: string }>('GET', '/v1/profile');
    return { organizationId: p.organizationId ?? null, companyName: p.companyName ?? null };
  }

  /** The vouchers of this type whose number is exactly `number` (Lexware's filter is exact too). */
  async findVouchers(number: string, type: VoucherType): Promise<FoundVoucher[]> {
    const page = await this.request<{ content?: unknown; vouchers?: unknown }>(
      'GET',
      `/v1/vouchers?voucherNumber=${encodeURIComponent(number)}`,
    );
    const list = Array.isArray(page.content) ? page.content : Array.isArray(page.vouchers) ? page.vouchers : [];
    return (list as Partial<FoundVoucher>[]).filter(
      (x): x is FoundVoucher =>
        typeof x?.id === 'string' && x.id !== '' && x.voucherNumber === number && x.type === type,
    );
  }

  /**
   * The id of a voucher Lexware already holds for this document (same number, type and gross
   * amount), or null; the same number with another amount is a non-retryable error.
   */
  private async existingVoucher(v: AccountingVoucher, type: VoucherType): Promise<string | null> {
    const found = await this.findVouchers(v.number, type);
    if (found.length === 0) return null;
    const ours = Math.round(Math.abs(v.totalGrossCents));
    const same = found.find((x) => cents(x.totalGrossAmount) === ours);
    if (same) return same.id;
    const theirs = cents(found[0]?.totalGrossAmount);
    throw new AccountingError(
      `A ${type} voucher with number ${v.number} already exists in Lexware with another amount ` +
        `(${theirs === null ? 'unknown' : (theirs / 100).toFixed(2)} instead of ${(ours / 100).toFixed(2)} ` +
        `${v.currency}); check it in Lexware before retrying`,
      null,
      false,
    );
  }

  /**
   * Books the voucher once: an existing voucher with this number is returned instead. The POST is
   * retried like `request`, but only a 429 (not performed by Lexware) is repeated directly; after a
   * timeout, network error or 5xx the next attempt looks the number up first.
   */
  async createVoucher(v: AccountingVoucher): Promise<{ id: string }> {
    const type: VoucherType = v.kind === 'invoice' ? 'salesinvoice' : 'salescreditnote';
    let body: Record<string, unknown> | null = null;
    let last: AccountingError | null = null;
    let lookUp = true;
    for (let attempt = 1; attempt <= this.attempts; attempt++) {
      if (lookUp) {
        const id = await this.existingVoucher(v, type);
        if (id) return { id };
      }
      body ??= {
        type,
        voucherNumber: v.number,
        voucherDate: lexDate(v.date),
        ...(v.serviceDate ? { shippingDate: lexDate(v.serviceDate) } : {}),
        ...(v.dueDate ? { dueDate: lexDate(v.dueDate) } : {}),
        totalGrossAmount: amount(v.totalGrossCents),
        totalTaxAmount: amount(v.totalTaxCents),
        taxType: 'gross',
        useCollectiveContact: true,
        remark: v.remark,
        voucherItems: voucherItems(v),
        voucherImages: [],
      };
      const r = await this.once<{ id?: string }>('POST', '/v1/vouchers', body);
      if (r.ok) {
        if (!r.value.id) throw new AccountingError('Lexware answered without a voucher id', null, false);
        return { id: r.value.id };
      }
      last = r.error;
      if (!last.retryable || attempt === this.attempts) break;
      // a 429 was not performed; anything else retryable may have been, so look again first
      lookUp = last.status !== 429;
      await this.pause(attempt, r.retryAfterMs);
    }
    throw last ?? new AccountingError('Lexware call failed', null, true);
  }
}

/** The voucher's items, one per posting category and tax rate (amounts summed in cents). */
function voucherItems(v: AccountingVoucher) {
  const groups = new Map<string, { categoryId: string; rate: number; gross: number; tax: number }>();
  for (const i of v.items) {
    const categoryId = POSTING_CATEGORIES[i.taxCategory].id;
    const rate = Math.round(i.taxRate * 100_000) / 1000;
    const key = `${categoryId}|${rate}`;
    const g = groups.get(key) ?? { categoryId, rate, gross: 0, tax: 0 };
    g.gross += i.grossCents;
    g.tax += i.taxCents;
    groups.set(key, g);
  }
  return [...groups.values()].map((g) => ({
    amount: amount(g.gross),
    taxAmount: amount(g.tax),
    taxRatePercent: g.rate,
    categoryId: g.categoryId,
  }));
}
