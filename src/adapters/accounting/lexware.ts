/**
 * Lexware Office public API client (formerly lexoffice; `https://api.lexware.io`, configurable
 * with LEXWARE_API_URL). Authentication is `Authorization: Bearer <api key>`. Used endpoints:
 * `GET /v1/profile` (connection check) and `POST /v1/vouchers` (bookkeeping vouchers of type
 * `salesinvoice` / `salescreditnote` with gross amounts per tax rate). Every call has a timeout;
 * 429 and 5xx (and network errors) are retried with exponential backoff, honouring Retry-After.
 */
import { type AccountingClient, AccountingError, type AccountingProfile, type AccountingVoucher } from './port.js';

/** Lexware's booking category "Einnahmen" (revenue) for sales vouchers. */
export const REVENUE_CATEGORY_ID = '8f8664a8-fd86-11e1-a21f-0800200c9a66';

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

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const amount = (cents: number) => Math.round(cents) / 100;

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

  private async request<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    let last: AccountingError | null = null;
    for (let attempt = 1; attempt <= this.attempts; attempt++) {
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
        last = new AccountingError(
          timeout
            ? `Lexware did not answer within ${this.timeoutMs} ms`
            : `Lexware is unreachable: ${(err as Error).message}`,
          null,
          true,
        );
        if (attempt < this.attempts) await sleep(this.backoffMs * 2 ** (attempt - 1));
        continue;
      }
      const text = await res.text();
      if (res.ok) return (text ? JSON.parse(text) : {}) as T;
      const retryable = res.status === 429 || res.status >= 500;
      last = new AccountingError(`Lexware ${res.status}: ${errorText(res.status, text)}`, res.status, retryable);
      if (!retryable || attempt === this.attempts) break;
      const after = Number(res.headers.get('retry-after'));
      const wait = Number.isFinite(after) && after >= 0 ? after * 1000 : this.backoffMs * 2 ** (attempt - 1);
      await sleep(Math.min(wait, MAX_RETRY_AFTER_MS));
    }
    throw last ?? new AccountingError('Lexware call failed', null, true);
  }

  async testConnection(): Promise<AccountingProfile> {
    const p = await this.request<{ organizationId?: string; companyName?: string }>('GET', '/v1/profile');
    return { organizationId: p.organizationId ?? null, companyName: p.companyName ?? null };
  }

  async createVoucher(v: AccountingVoucher): Promise<{ id: string }> {
    const body = {
      type: v.kind === 'invoice' ? 'salesinvoice' : 'salescreditnote',
      voucherNumber: v.number,
      voucherDate: lexDate(v.date),
      ...(v.serviceDate ? { shippingDate: lexDate(v.serviceDate) } : {}),
      ...(v.dueDate ? { dueDate: lexDate(v.dueDate) } : {}),
      totalGrossAmount: amount(v.totalGrossCents),
      totalTaxAmount: amount(v.totalTaxCents),
      taxType: 'gross',
      useCollectiveContact: true,
      remark: v.remark,
      voucherItems: v.items.map((i) => ({
        amount: amount(i.grossCents),
        taxAmount: amount(i.taxCents),
        taxRatePercent: Math.round(i.taxRate * 100_000) / 1000,
        categoryId: REVENUE_CATEGORY_ID,
      })),
      voucherImages: [],
    };
    const res = await this.request<{ id?: string }>('POST', '/v1/vouchers', body);
    if (!res.id) throw new AccountingError('Lexware answered without a voucher id', null, false);
    return { id: res.id };
  }
}
