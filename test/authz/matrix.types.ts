/**
 * The authorization matrix (spec §5): every route × every credential kind. Each module adds a
 * rows file under rows/ and lists it in rows/index.ts; matrix.test.ts runs them all.
 *
 * A row names the credentials the spec ALLOWS. Allowed credentials must get `ok` (use a request
 * that cannot change state: an invalid body → 400, or an unknown id → 404); every other
 * credential must be refused with 401 (none/unknown) or 403 (known but not allowed).
 */
export const CREDENTIALS = [
  'none',
  'unknown_bearer',
  'platform',
  'owner',
  'admin',
  'catalog_editor',
  'viewer',
  'tok_catalog_read',
  'tok_catalog_write',
  'tok_finance_read',
  'pk_allowed_origin',
  'pk_other_origin',
  'customer',
  'vendor',
  'affiliate',
] as const;
export type Credential = (typeof CREDENTIALS)[number];

/**
 * Credentials derived from a base one. Each runs on the rows that allow its base credential (and
 * on rows that name it in `expect`) and must answer like its base unless the row says otherwise.
 */
export const DERIVED_CREDENTIALS = {
  /** An admin restricted to the matrix shop's default channel (DESIGN §2 channel restriction). */
  restricted_admin: 'admin',
  /** An admin restricted to one channel that was then deleted: restricted to no channel. */
  emptied_admin: 'admin',
  /** The publishable key plus X-Customer-Session of a live customer of the shop. */
  pk_signed_in: 'pk_allowed_origin',
  /** The publishable key plus X-Customer-Session of a customer of another shop. */
  pk_foreign_session: 'pk_allowed_origin',
  /** The publishable key plus X-Customer-Session of a signed-out (revoked) session. */
  pk_revoked_session: 'pk_allowed_origin',
} as const satisfies Record<string, Credential>;
export type DerivedCredential = keyof typeof DERIVED_CREDENTIALS;
export type AnyCredential = Credential | DerivedCredential;

/** An expectation for one credential on one row that differs from the row's general rule. */
export interface CredentialExpectation {
  status: number;
  code?: string;
  /** A check of the answer's body (e.g. what a list holds for a channel-restricted employee). */
  body?: (data: any, f: MatrixFixture) => boolean;
}

/** What a row may use to build its URL or body: ids of records that exist in the matrix's shop. */
export interface MatrixFixture {
  shopId: string;
  ids: Record<string, string>;
}

export interface MatrixRow {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string | ((f: MatrixFixture) => string);
  body?: unknown;
  /** Credentials the spec allows. */
  allow: Credential[];
  /** Status allowed credentials get (default 200). */
  ok?: number;
  /** The call ends the caller's session (logout): allowed credentials are minted fresh for it. */
  consumesSession?: boolean;
  /**
   * Runs once before the row's calls, with the shop owner's session: puts the matrix shop into the
   * state the row needs (e.g. activates the digital add-on so allowed calls reach the handler).
   */
  setup?: (api: MatrixSetup) => Promise<void>;
  /** Expected error code for specific refused credentials (checked when given). */
  codes?: Partial<Record<Credential, string>>;
  /** Per-credential expectations (base or derived) that override the rule above. */
  expect?: Partial<Record<AnyCredential, CredentialExpectation>>;
  /**
   * The route takes a signed-in customer behind the publishable key (AuthSpec.signedInCustomer):
   * a customer session that is not a live session of the key's shop is refused 401
   * customer_session_invalid; elsewhere X-Customer-Session is ignored.
   */
  signedInCustomer?: true;
}

export interface MatrixSetup {
  fixture: MatrixFixture;
  asOwner(method: MatrixRow['method'], url: string, body?: unknown): Promise<{ statusCode: number; data: any }>;
  /** Any HTTP call to the app (storefront checkout, hosted payment page). */
  call(
    method: string,
    url: string,
    opts: { token?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<{ statusCode: number; data: any; body: string }>;
  /** The matrix shop's publishable key and default channel. */
  publishableKey: string;
  defaultChannelId: string;
}

/** Shorthands for allow-lists used by many rows. */
export const ANY_EMPLOYEE: Credential[] = ['owner', 'admin', 'catalog_editor', 'viewer'];
export const MANAGERS: Credential[] = ['owner', 'admin'];
/** Reading finance (`readMoney`): owner, admin and viewer signed in. */
export const FINANCE_READERS: Credential[] = ['owner', 'admin', 'viewer'];
export const CATALOG_WRITERS: Credential[] = ['owner', 'admin', 'catalog_editor'];

/**
 * What routes over every channel at once (AuthSpec.allChannels: partners, the webhook endpoint and
 * its log) answer a channel-restricted employee: 403 channel_restricted (docs/decisions.md).
 */
export const ALL_CHANNELS_ONLY: Partial<Record<DerivedCredential, CredentialExpectation>> = {
  restricted_admin: { status: 403, code: 'channel_restricted' },
  emptied_admin: { status: 403, code: 'channel_restricted' },
};

/**
 * Creating a checkout or abo session at `url` (also under a channel's path prefix, `/:prefix/…`,
 * resolved after validation): an empty body is 400 for the publishable key. A storefront may buy
 * as its signed-in customer: X-Customer-Session must then be a live session of the key's shop
 * (pk_signed_in passes; foreign and revoked sessions: 401).
 */
export const storeSessionRow = (url: string, codes: MatrixRow['codes']): MatrixRow => ({
  method: 'POST',
  url,
  body: {},
  signedInCustomer: true,
  allow: ['pk_allowed_origin'],
  ok: 400,
  codes,
});
