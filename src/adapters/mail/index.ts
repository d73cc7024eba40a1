/**
 * E-mail: `queueEmail` stores an e-mail and its delivery job in the caller's transaction (the
 * outbox), the `mail.send` job hands it to the configured mailer, and admins list the outbox at
 * GET /api/admin/emails.
 *
 * Secrets (docs/decisions.md, "Secrets in e-mails"): an e-mail that carries a one-use token or a
 * management link names it in `secrets`. The stored, listed and logged text has each secret
 * replaced by `[redacted]`; the full body travels only in the payload of its send job, which the
 * job deletes once the mail is handed over (or finally failed). Only in outbox-only development
 * mode (no SMTP_URL, NODE_ENV not production), where the outbox is the one delivery, the full body
 * is kept beside the e-mail (`unredacted_text`) and shown to an unrestricted owner alone.
 */

import { createHash } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import { configureShop } from '../../platform/auth/presets.js';
import { iso, isoOrNull } from '../../platform/dates.js';
import type { Db } from '../../platform/db/client.js';
import type { TxCtx } from '../../platform/db/tx.js';
import { AppError } from '../../platform/errors.js';
import { Nullable, PageMeta, Pagination, pageOf, Timestamp } from '../../platform/http/schemas.js';
import { newId } from '../../platform/ids.js';
import { enqueue } from '../../platform/jobs/queue.js';
import type { Module } from '../../platform/module.js';
import { type EmailRow, emailAttachments, emails } from './mail.tables.js';
import { OutboxMailer } from './outbox.js';
import type { Attachment, Mailer } from './port.js';
import { SmtpMailer } from './smtp.js';

export type { Attachment, Mailer, OutgoingMail } from './port.js';

/** E-mails of the shop made since `since` that failed after their last attempt (the back office's overview). */
export async function failedEmailCount(ctx: { db: Db; shopId: string }, since: Date): Promise<number> {
  const [row] = await ctx.db
    .select({ n: sql<number>`count(*)::int` })
    .from(emails)
    .where(
      and(
        eq(emails.shopId, ctx.shopId),
        eq(emails.status, 'failed'),
        sql`${emails.createdAt} >= ${since.toISOString()}::timestamptz`,
      ),
    );
  return Number(row?.n ?? 0);
}

export const MAIL_JOB = 'mail.send';

/** The mailer the configuration names: SMTP when SMTP_URL is set, else the outbox. */
export function createMailer(config: Config, log: FastifyBaseLogger): Mailer {
  if (config.smtpUrl) return new SmtpMailer(config.smtpUrl, config.mailFrom);
  return new OutboxMailer(log);
}

export interface NewEmail {
  kind: string;
  to: string;
  subject: string;
  text: string;
  /** Values in `text` that must never be stored, listed or logged (tokens, management links). */
  secrets?: string[];
  attachments?: Attachment[];
  now: Date;
}

export const REDACTED = '[redacted]';

/** `text` with every occurrence of each secret (as is and URL-encoded) replaced by [redacted]. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (!secret) continue;
    for (const form of new Set([secret, encodeURIComponent(secret)])) out = out.split(form).join(REDACTED);
  }
  return out;
}

/**
 * Whether mail really leaves the service (SMTP_URL set, or production): then no secret is kept
 * anywhere but in the send job. Otherwise the outbox is the only delivery (development).
 */
export const mailIsDelivered = (config: Pick<Config, 'smtpUrl' | 'production'>): boolean =>
  config.smtpUrl !== null || config.production;

/**
 * Stores an e-mail of `ctx.shopId` and enqueues its delivery in the transaction `ctx.db`: sent if
 * and only if the change commits.
 */
export async function queueEmail(
  ctx: Pick<TxCtx, 'db' | 'shopId'> & Partial<Pick<TxCtx, 'config'>>,
  mail: NewEmail,
): Promise<string> {
  const { db: tx, shopId } = ctx;
  const id = newId('email');
  const secrets = (mail.secrets ?? []).filter((x) => x.length > 0);
  if (secrets.length > 0 && !ctx.config) throw new Error('queueEmail: an e-mail with secrets needs ctx.config');
  // development (the outbox is the one delivery): the full text stays beside the e-mail for the owner
  const keepFull = secrets.length > 0 && ctx.config !== undefined && !mailIsDelivered(ctx.config);
  await tx.insert(emails).values({
    id,
    shopId,
    kind: mail.kind,
    to: mail.to,
    subject: mail.subject,
    text: redactSecrets(mail.text, secrets),
    unredactedText: keepFull ? mail.text : null,
    createdAt: mail.now,
  });
  for (const [i, a] of (mail.attachments ?? []).entries()) {
    await tx.insert(emailAttachments).values({
      id: `${id}_a${i + 1}`,
      shopId,
      emailId: id,
      filename: a.filename,
      contentType: a.contentType,
      sizeBytes: a.content.length,
      sha256: createHash('sha256').update(a.content).digest('hex'),
      content: a.content.toString('base64'),
      createdAt: mail.now,
    });
  }
  // the full body, only when it differs from the stored one: deleted by the job once handed over
  const payload = secrets.length > 0 && !keepFull ? { email_id: id, text: mail.text } : { email_id: id };
  await enqueue(tx, MAIL_JOB, payload, { now: mail.now, shopId, maxAttempts: 8 });
  return id;
}

const EMAIL_STATUSES = ['queued', 'stored', 'sent', 'failed'] as const;

const EmailOut = Type.Object({
  id: Type.String(),
  kind: Type.String(),
  to: Type.String(),
  subject: Type.String(),
  text: Type.String(),
  status: Type.String({ description: 'queued | stored (outbox) | sent (smtp) | failed' }),
  transport: Nullable(Type.String()),
  last_error: Nullable(Type.String()),
  sent_at: Nullable(Timestamp),
  created_at: Timestamp,
});

/** The text an employee sees: the full body only for an unrestricted owner, and only in development. */
const emailOut = (e: EmailRow, fullText: boolean) => ({
  id: e.id,
  kind: e.kind,
  to: e.to,
  subject: e.subject,
  text: fullText && e.unredactedText !== null ? e.unredactedText : e.text,
  status: e.status,
  transport: e.transport,
  last_error: e.lastError,
  sent_at: isoOrNull(e.sentAt),
  created_at: iso(e.createdAt),
});

export const mailModule: Module = {
  name: 'mail',
  group: 'shop',
  routes(app, deps) {
    app.get(
      '/api/admin/emails',
      {
        config: configureShop,
        schema: {
          tags: ['emails'],
          summary: 'The mail outbox: e-mails the shop sent, newest first',
          description:
            'Owner or admin, not restricted to channels (the outbox holds the buyers of every channel). Tokens and management links are shown as [redacted]; only in outbox-only development mode (no SMTP_URL, not production) does the unrestricted owner see the full text.',
          querystring: Type.Object(
            {
              to: Type.Optional(Type.String({ minLength: 1, maxLength: 254, description: 'Exact recipient' })),
              kind: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
              status: Type.Optional(
                Type.Union(
                  EMAIL_STATUSES.map((s) => Type.Literal(s)),
                  { description: 'queued (waiting or retrying), stored (outbox), sent (smtp), failed (gave up)' },
                ),
              ),
              ...Pagination,
            },
            { additionalProperties: false },
          ),
          response: { 200: Type.Object({ emails: Type.Array(EmailOut), ...PageMeta }) },
        },
      },
      async (request) => {
        const q = request.query;
        const { limit, offset } = pageOf(q);
        const { db, shopId, actor } = request.ctx;
        if (actor?.kind === 'admin' && actor.channelRestricted) {
          throw new AppError(
            'role_denied',
            'The outbox holds e-mails of every channel; an employee restricted to channels may not list it',
          );
        }
        const fullText = actor?.kind === 'admin' && actor.role === 'owner' && !mailIsDelivered(deps.config);
        const where = and(
          eq(emails.shopId, shopId),
          q.to ? sql`lower(${emails.to}) = lower(${q.to})` : undefined,
          q.kind ? eq(emails.kind, q.kind) : undefined,
          q.status ? eq(emails.status, q.status) : undefined,
        );
        const [rows, total] = await Promise.all([
          db
            .select()
            .from(emails)
            .where(where)
            .orderBy(desc(emails.createdAt), desc(emails.id))
            .limit(limit)
            .offset(offset),
          db.select({ n: sql<number>`count(*)::int` }).from(emails).where(where),
        ]);
        return { emails: rows.map((e) => emailOut(e, fullText)), count: Number(total[0]?.n ?? 0), limit, offset };
      },
    );
  },
  jobs(registry, deps) {
    let mailer: Mailer | null = null;
    registry.register(MAIL_JOB, {
      async run(payload, jc) {
        mailer ??= createMailer(deps.config, jc.log);
        const id = String(payload.email_id ?? '');
        // the e-mail's shop, which its job carries (every e-mail belongs to a shop)
        const shopId = jc.job.shop_id ?? '';
        const fullText = typeof payload.text === 'string' ? payload.text : null;
        /** Deletes the full body from this job's payload: it lived there only until the hand-over. */
        const forgetFullText = async () => {
          if (fullText !== null) {
            await jc.db.execute(sql`UPDATE jobs SET payload = payload - 'text' WHERE id = ${jc.job.id}`);
          }
        };
        const [mail] = await jc.db
          .select()
          .from(emails)
          .where(and(eq(emails.shopId, shopId), eq(emails.id, id)));
        if (mail?.status !== 'queued') {
          await forgetFullText();
          return;
        }
        try {
          const files = await jc.db
            .select()
            .from(emailAttachments)
            .where(and(eq(emailAttachments.shopId, shopId), eq(emailAttachments.emailId, id)));
          await mailer.send({
            to: mail.to,
            subject: mail.subject,
            text: fullText ?? mail.unredactedText ?? mail.text,
            loggableText: mail.text,
            attachments: files.map((f) => ({
              filename: f.filename,
              contentType: f.contentType,
              content: Buffer.from(f.content, 'base64'),
            })),
          });
        } catch (err) {
          const message = err instanceof Error ? err.message : String(err);
          const last = jc.job.attempts >= jc.job.max_attempts;
          await jc.db
            .update(emails)
            .set({ lastError: message.slice(0, 500), ...(last ? { status: 'failed' } : {}) })
            .where(and(eq(emails.shopId, shopId), eq(emails.id, id)));
          if (last) await forgetFullText();
          throw err;
        }
        await jc.db
          .update(emails)
          .set({
            status: mailer.name === 'outbox' ? 'stored' : 'sent',
            transport: mailer.name,
            lastError: null,
            sentAt: jc.clock.now(),
          })
          .where(and(eq(emails.shopId, shopId), eq(emails.id, id)));
        await forgetFullText();
      },
    });
  },
};
