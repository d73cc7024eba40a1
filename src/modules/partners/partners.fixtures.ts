/**
 * Test helpers for the partner module: invitation tokens from the e-mail outbox, portal sessions,
 * and the two vendors of the finance shop that the payout and statement tests share.
 */
import { sql } from 'drizzle-orm';
import { call, type TestApp } from '../../../test/helpers/app.js';
import { query } from '../../platform/db/tx.js';
import type { FinanceShop } from '../finance/finance.fixtures.js';
import type { PartnerType } from './partners.tables.js';

/** The token of the newest invitation e-mail sent to `email` (from the outbox table). */
export async function inviteTokenFor(t: TestApp, kind: PartnerType, email: string): Promise<string> {
  const rows = await query<{ text: string }>(
    t.app.deps.database.db,
    sql`SELECT coalesce(unredacted_text, text_body) AS text FROM emails WHERE kind = ${`${kind}_invite`} AND lower(to_address) = lower(${email})
        ORDER BY created_at DESC, id DESC LIMIT 1`,
  );
  const match = rows[0]?.text.match(/[?&]token=([^\s&]+)/);
  if (!match?.[1]) throw new Error(`no ${kind} invitation e-mail to ${email}`);
  return decodeURIComponent(match[1]);
}

/** Accepts the newest invitation sent to `email` and returns the portal session token. */
export async function acceptInvite(t: TestApp, kind: PartnerType, email: string, password = 'partner-pass-1') {
  const token = await inviteTokenFor(t, kind, email);
  const res = await call(t.app, 'POST', `/api/${kind}/auth/accept`, { body: { token, password } });
  if (res.statusCode !== 200) throw new Error(`accept failed: ${res.statusCode} ${res.body}`);
  return res.data.token as string;
}

/** The response's data when its status is `status`; throws with the body otherwise. */
export async function ok(res: Awaited<ReturnType<typeof call>>, status = 200) {
  if (res.statusCode !== status) throw new Error(`expected ${status}, got ${res.statusCode} ${res.body}`);
  return res.data;
}

/** Invites a vendor (unique e-mail from the name) as the shop owner and accepts the invitation. */
export async function inviteVendor(t: TestApp, ownerToken: string, name: string) {
  const email = `${name.toLowerCase().replace(/\W/g, '')}-${Math.random().toString(36).slice(2, 6)}@vendor.test`;
  const v = await ok(
    await call(t.app, 'POST', '/api/admin/vendors/invite', { token: ownerToken, body: { email, name } }),
    201,
  );
  return { id: v.id as string, session: await acceptInvite(t, 'vendor', email) };
}

/**
 * Two vendors on the finance shop: A sells the course and the cheese, B the e-book. Returns their
 * ids and portal sessions.
 */
export async function twoVendors(t: TestApp, f: FinanceShop) {
  const a = await inviteVendor(t, f.owner, 'Käserei Alm');
  const b = await inviteVendor(t, f.owner, 'Verlag Buch');
  for (const [product, vendor] of [
    [f.products.course, a.id],
    [f.products.cheese, a.id],
    [f.products.ebook, b.id],
  ] as const) {
    await ok(await call(t.app, 'PATCH', `/api/products/${product}`, { token: f.owner, body: { vendor_id: vendor } }));
  }
  return { vendorA: a.id, sessionA: a.session, vendorB: b.id, sessionB: b.session };
}
