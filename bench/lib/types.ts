/** The contract between the harness (bench/run.ts) and a benchmark case (bench/cases/*.ts). */
import type { Db } from '../../src/platform/db/client.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';

/** The one request a case fires over and over, against the app and against the bare server. */
export interface RequestSpec {
  method: HttpMethod;
  /** Path and query string, e.g. `/api/admin/products?q=shirt`. */
  path: string;
  headers?: Record<string, string>;
  /** A string is sent as is; anything else is sent as JSON (with content-type application/json). */
  body?: unknown;
}

/**
 * Many requests instead of one (a realistic traffic mix): every connection takes the next request
 * of `sequence` from one shared cursor, so the servers see the sequence in order, cycling. The
 * harness probes each distinct request once (they must all answer 2xx) and the bare server answers
 * each with the app's bytes for it (looked up by method, path and Origin).
 */
export interface RequestMix {
  sequence: RequestSpec[];
  /** Runs after the probes and before the measurement (e.g. to make the app's cache stale again). */
  afterProbe?: () => Promise<void>;
}

export interface Targets {
  /** The app's 99th percentile latency must be at most this many milliseconds. */
  p99Ms?: number;
  /** app req/s ÷ bare req/s must be at least this. */
  minRatioToBare?: number;
  /** The app process's resident set size (highest sample during the case) must stay at most this. */
  maxRssMb?: number;
  /** The app must serve at least this many requests per second. */
  minRps?: number;
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  /** Parsed JSON when the response is JSON, else null. */
  data: any;
  text: string;
}

export interface ApiCallOptions {
  /** Sent as `Authorization: Bearer <token>`. */
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface ShopFixture {
  shopId: string;
  ownerId: string;
  ownerEmail: string;
  ownerPassword: string;
  /** The owner's admin session token (Bearer). */
  ownerToken: string;
  publishableKey: string;
  publishableKeyId: string;
  /** The storefront origin the publishable key accepts (send it as the Origin header). */
  storefrontOrigin: string;
  /** The channel the shop was created with (DESIGN §2): EUR, DE, the default. */
  defaultChannelId: string;
}

export interface CreateShopOptions {
  name?: string;
  digitalAllowed?: boolean;
  origins?: string[];
}

export interface BenchContext {
  /** The app's base URL, e.g. `http://127.0.0.1:41234` (no trailing slash). */
  baseUrl: string;
  /** The platform operator's token (Bearer) for /api/platform routes. */
  platformToken: string;
  /** Drizzle over the benchmark database, for bulk loading. */
  db: Db;
  /** One HTTP call to the app (setup only; never measured). */
  api(method: HttpMethod, path: string, opts?: ApiCallOptions): Promise<ApiResponse>;
  /** Creates a shop through POST /api/platform/shops and signs its owner in. */
  createShop(opts?: CreateShopOptions): Promise<ShopFixture>;
  /** Progress output for slow setups (data loading). */
  log(message: string): void;
}

export interface BenchCase {
  /** Unique, used on the command line: `npm run bench -- <name>`. */
  name: string;
  description?: string;
  /** Prepares data and returns the request (or the mix) to measure. Runs once, before the measurement. */
  setup(ctx: BenchContext): Promise<RequestSpec | RequestMix>;
  connections: number;
  durationSeconds: number;
  targets?: Targets;
}
