/**
 * The directory tables (directory.tables.ts, docs/decisions.md "Directory tables"): a credential,
 * a domain, an employee e-mail or a provider reference resolves to its shop by one primary-key read
 * here, and only then is the owning row read, by `shop_id` and its key. Writers call `register…`
 * and `drop…` in the transaction that creates, revokes or deletes the owning row, so the two never
 * disagree once it commits; a reader never trusts the directory alone: the owning row must exist
 * in the directory's shop, so a directory row of shop A can never authenticate in shop B.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from './client.js';
import {
  type CredentialDirectoryKind,
  credentialDirectory,
  domainDirectory,
  employeeEmailDirectory,
  type ProviderRefKind,
  providerRefDirectory,
} from './directory.tables.js';
import { prepared } from './prepared.js';

export type { CredentialDirectoryKind, ProviderRefKind };

// ---- credentials ------------------------------------------------------------------------------

export interface DirectoryEntry {
  shopId: string;
  rowId: string;
}

/** Records a new live credential (by its SHA-256) of `shopId`; call in the owning row's transaction. */
export async function registerCredential(
  db: Db,
  e: { hash: string; kind: CredentialDirectoryKind; shopId: string; rowId: string },
): Promise<void> {
  await db.insert(credentialDirectory).values(e);
}

/**
 * Forgets credentials (revoked, used, replaced or pruned); call in the owning rows' transaction.
 * A process may still remember the hash's shop (credentialEntry): harmless, the owning row refuses it.
 */
export async function dropCredentials(db: Db, hashes: readonly (string | null | undefined)[]): Promise<void> {
  const list = hashes.filter((h): h is string => typeof h === 'string' && h.length > 0);
  if (list.length === 0) return;
  if (list.length === 1) await db.delete(credentialDirectory).where(eq(credentialDirectory.hash, list[0] as string));
  else await db.delete(credentialDirectory).where(inArray(credentialDirectory.hash, list));
}

/**
 * What a credential hash resolved to, remembered per database handle: a hash belongs to one shop
 * and one owning row for life (tokens are random; a re-issued credential gets a new hash), and
 * every reader checks the owning row by shop, id and this hash (revoked, used, expired or replaced
 * → refused there), so a remembered entry can never authenticate what the directory would refuse;
 * it only saves the directory's round trip on every signed-in request. Unknown hashes are not
 * remembered (a guess costs its read). Bounded; the oldest entry goes first.
 */
const CREDENTIAL_CACHE_MAX = 20_000;
type Remembered = Map<string, DirectoryEntry & { kind: CredentialDirectoryKind }> & { epoch?: number };
const credentialCaches = new WeakMap<object, Remembered>();
let epoch = 0;

function credentialCache(db: Db): Remembered {
  let cache = credentialCaches.get(db);
  if (!cache || cache.epoch !== epoch) {
    cache = Object.assign(new Map(), { epoch });
    credentialCaches.set(db, cache);
  }
  return cache;
}

/** Forgets every remembered credential of this process: for tests that edit the directory by hand. */
export function forgetRememberedCredentials(): void {
  epoch++;
}

function remember(db: Db, hash: string, e: DirectoryEntry & { kind: CredentialDirectoryKind }) {
  const cache = credentialCache(db);
  if (cache.size >= CREDENTIAL_CACHE_MAX) cache.delete(cache.keys().next().value as string);
  cache.set(hash, { kind: e.kind, shopId: e.shopId, rowId: e.rowId });
}

/** The shop and owning row of a live credential of `kind` (one primary-key read, then remembered); null when unknown. */
export async function credentialEntry(
  db: Db,
  kind: CredentialDirectoryKind,
  hash: string,
): Promise<DirectoryEntry | null> {
  const known = credentialCache(db).get(hash);
  if (known) return known.kind === kind ? { shopId: known.shopId, rowId: known.rowId } : null;
  const statement = prepared(db, 'directory_credential', (d, name) =>
    d
      .select({ kind: credentialDirectory.kind, shopId: credentialDirectory.shopId, rowId: credentialDirectory.rowId })
      .from(credentialDirectory)
      .where(eq(credentialDirectory.hash, sql.placeholder('hash')))
      .prepare(name),
  );
  const [row] = await statement.execute({ hash });
  if (!row) return null;
  remember(db, hash, row);
  return row.kind === kind ? { shopId: row.shopId, rowId: row.rowId } : null;
}

/** Several credentials of `kind` at once (hash → entry); unknown ones are absent. */
export async function credentialEntries(
  db: Db,
  kind: CredentialDirectoryKind,
  hashes: readonly string[],
): Promise<Map<string, DirectoryEntry>> {
  const cache = credentialCache(db);
  const found = new Map<string, DirectoryEntry>();
  const missing: string[] = [];
  for (const hash of hashes) {
    const known = cache.get(hash);
    if (!known) missing.push(hash);
    else if (known.kind === kind) found.set(hash, { shopId: known.shopId, rowId: known.rowId });
  }
  if (missing.length === 0) return found;
  const statement = prepared(db, 'directory_credentials', (d, name) =>
    d
      .select({
        hash: credentialDirectory.hash,
        kind: credentialDirectory.kind,
        shopId: credentialDirectory.shopId,
        rowId: credentialDirectory.rowId,
      })
      .from(credentialDirectory)
      .where(sql`${credentialDirectory.hash} = ANY(${sql.placeholder('hashes')}::text[])`)
      .prepare(name),
  );
  const rows = await statement.execute({ hashes: missing });
  for (const r of rows) {
    remember(db, r.hash, r);
    if (r.kind === kind) found.set(r.hash, { shopId: r.shopId, rowId: r.rowId });
  }
  return found;
}

// ---- domains ----------------------------------------------------------------------------------

/** The primary key whose violation means "this domain is mapped already" (in any shop). */
export const DOMAIN_DIRECTORY_KEY = 'domain_directory_pkey';

/** Records a channel's domain; a domain mapped anywhere already is a unique violation of DOMAIN_DIRECTORY_KEY. */
export async function registerDomain(
  db: Db,
  e: { domain: string; shopId: string; channelId: string; rowId: string },
): Promise<void> {
  await db.insert(domainDirectory).values(e);
}

/** Forgets a shop's domains (removed mappings, a deleted channel). */
export async function dropDomains(db: Db, shopId: string, domains: readonly string[]): Promise<void> {
  if (domains.length === 0) return;
  await db
    .delete(domainDirectory)
    .where(and(eq(domainDirectory.shopId, shopId), inArray(domainDirectory.domain, [...domains])));
}

/** Forgets every domain of a deleted channel. */
export async function dropChannelDomains(db: Db, shopId: string, channelId: string): Promise<void> {
  await db
    .delete(domainDirectory)
    .where(and(eq(domainDirectory.shopId, shopId), eq(domainDirectory.channelId, channelId)));
}

/** The shop and channel a domain is mapped to (one primary-key read); null when unmapped. */
export async function domainEntry(db: Db, domain: string): Promise<{ shopId: string; channelId: string } | null> {
  const statement = prepared(db, 'directory_domain', (d, name) =>
    d
      .select({ shopId: domainDirectory.shopId, channelId: domainDirectory.channelId })
      .from(domainDirectory)
      .where(eq(domainDirectory.domain, sql.placeholder('domain')))
      .prepare(name),
  );
  const [row] = await statement.execute({ domain });
  return row ?? null;
}

// ---- employee e-mails -------------------------------------------------------------------------

/** The primary key whose violation means "an employee (of any shop) has this e-mail". */
export const EMPLOYEE_EMAIL_DIRECTORY_KEY = 'employee_email_directory_pkey';

const emailKey = (email: string) => email.trim().toLowerCase();

/** Records an employee's e-mail; one taken in any shop is a unique violation of EMPLOYEE_EMAIL_DIRECTORY_KEY. */
export async function registerEmployeeEmail(
  db: Db,
  e: { email: string; shopId: string; userId: string },
): Promise<void> {
  await db.insert(employeeEmailDirectory).values({ ...e, email: emailKey(e.email) });
}

/** Forgets a removed employee's e-mail. */
export async function dropEmployeeEmail(db: Db, shopId: string, userId: string): Promise<void> {
  await db
    .delete(employeeEmailDirectory)
    .where(and(eq(employeeEmailDirectory.shopId, shopId), eq(employeeEmailDirectory.userId, userId)));
}

/** The employee an e-mail belongs to, and its shop (one primary-key read); null when none. */
export async function employeeEmailEntry(db: Db, email: string): Promise<{ shopId: string; userId: string } | null> {
  const [row] = await db
    .select({ shopId: employeeEmailDirectory.shopId, userId: employeeEmailDirectory.userId })
    .from(employeeEmailDirectory)
    .where(eq(employeeEmailDirectory.email, emailKey(email)));
  return row ?? null;
}

// ---- provider references ----------------------------------------------------------------------

/** The primary key whose violation means "this provider reference belongs to another row already". */
export const PROVIDER_REF_DIRECTORY_KEY = 'provider_ref_directory_pk';

/**
 * Records a provider's reference of a row (idempotent for the same row: setting the same reference
 * again is a no-op). Another row holding it already is a unique violation of PROVIDER_REF_DIRECTORY_KEY.
 */
export async function registerProviderRef(
  db: Db,
  e: { provider: string; ref: string; kind: ProviderRefKind; shopId: string; rowId: string },
): Promise<void> {
  const rows = await db
    .insert(providerRefDirectory)
    .values(e)
    .onConflictDoNothing()
    .returning({ ref: providerRefDirectory.ref });
  if (rows.length > 0) return;
  const [held] = await db
    .select()
    .from(providerRefDirectory)
    .where(and(eq(providerRefDirectory.provider, e.provider), eq(providerRefDirectory.ref, e.ref)));
  if (held && (held.shopId !== e.shopId || held.rowId !== e.rowId || held.kind !== e.kind)) {
    throw Object.assign(new Error(`provider reference ${e.provider}/${e.ref} belongs to another row`), {
      code: '23505',
      constraint: PROVIDER_REF_DIRECTORY_KEY,
    });
  }
}

/** Forgets a provider reference of a row (replaced by a newer one). */
export async function dropProviderRef(db: Db, e: { provider: string; ref: string; shopId: string; rowId: string }) {
  await db
    .delete(providerRefDirectory)
    .where(
      and(
        eq(providerRefDirectory.provider, e.provider),
        eq(providerRefDirectory.ref, e.ref),
        eq(providerRefDirectory.shopId, e.shopId),
        eq(providerRefDirectory.rowId, e.rowId),
      ),
    );
}

/** The shop and row a provider's reference of `kind` belongs to (one primary-key read); null when unknown. */
export async function providerRefEntry(
  db: Db,
  kind: ProviderRefKind,
  provider: string,
  ref: string,
): Promise<DirectoryEntry | null> {
  const [row] = await db
    .select({ kind: providerRefDirectory.kind, shopId: providerRefDirectory.shopId, rowId: providerRefDirectory.rowId })
    .from(providerRefDirectory)
    .where(and(eq(providerRefDirectory.provider, provider), eq(providerRefDirectory.ref, ref)));
  return row && row.kind === kind ? { shopId: row.shopId, rowId: row.rowId } : null;
}
