/** The mail outbox (docs/ARCHITECTURE.md): every e-mail the service sends is stored here first. */
import { sql } from 'drizzle-orm';
import { index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { shopRef } from '../../modules/shops/shops.tables.js';

export const emails = pgTable(
  'emails',
  {
    id: text('id').notNull(),
    shopId: shopRef(),
    /** What the e-mail is about, e.g. `abo.created`. */
    kind: text('kind').notNull(),
    to: text('to_address').notNull(),
    subject: text('subject').notNull(),
    /** The text with its secrets (tokens, management links) replaced by [redacted]. */
    text: text('text_body').notNull(),
    /**
     * The full text, kept only in outbox-only development mode (no SMTP_URL, not production), where
     * the outbox is the one delivery; shown to an unrestricted owner alone. Null otherwise.
     */
    unredactedText: text('unredacted_text'),
    /** queued → sent (smtp) | stored (outbox: listable by admins) ; failed after the last attempt */
    status: text('status').$type<'queued' | 'sent' | 'stored' | 'failed'>().notNull().default('queued'),
    /** outbox | smtp: the mailer that handled it. */
    transport: text('transport'),
    lastError: text('last_error'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'emails_pkey', columns: [t.shopId, t.id] }),
    index('emails_shop_created_idx').on(t.shopId, t.createdAt.desc(), t.id.desc()),
    /** The overview's count of failed e-mails. */
    index('emails_shop_failed_idx').on(t.shopId, t.createdAt).where(sql`status = 'failed'`),
  ],
);

export type EmailRow = typeof emails.$inferSelect;

/** Files sent with an e-mail (e.g. the PDF of an invoice), stored with it so the outbox shows exactly what was sent. */
export const emailAttachments = pgTable(
  'email_attachments',
  {
    id: text('id').notNull(),
    shopId: shopRef(),
    emailId: text('email_id').notNull(),
    filename: text('filename').notNull(),
    contentType: text('content_type').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    sha256: text('sha256').notNull(),
    /** base64 */
    content: text('content').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ name: 'email_attachments_pkey', columns: [t.shopId, t.id] }),
    index('email_attachments_email_idx').on(t.shopId, t.emailId),
  ],
);
