/** Test helpers for the partner module: invitation tokens from the e-mail outbox, portal sessions. */
import { sql } from 'drizzle-orm';
import { call, type TestApp } from '../../../test/helpers/app.js';
import { query } from '../../platform/db/tx.js';
import type { PartnerType } from './partners.tables.js';

/** The token of the newest invitation e-mail sent to `email` (from the outbox table). */
export async function inviteTokenFor(t: TestApp, kind: PartnerType, email: string): Promise<string> {
  const rows = await query<{ text: string }>(
    t.app.deps.database.db,
    sql`SELECT text_body AS text FROM emails WHERE kind = ${`${kind}_invite`} AND lower(to_address) = lower(${email})
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
