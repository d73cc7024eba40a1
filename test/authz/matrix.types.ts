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
}

export interface MatrixSetup {
  fixture: MatrixFixture;
  asOwner(method: MatrixRow['method'], url: string, body?: unknown): Promise<{ statusCode: number; data: any }>;
}

/** Shorthands for allow-lists used by many rows. */
export const ANY_EMPLOYEE: Credential[] = ['owner', 'admin', 'catalog_editor', 'viewer'];
export const MANAGERS: Credential[] = ['owner', 'admin'];
export const CATALOG_WRITERS: Credential[] = ['owner', 'admin', 'catalog_editor'];
