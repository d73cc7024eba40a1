/**
 * The default mailer: the e-mail stays in the `emails` table (listable by admins at
 * GET /api/admin/emails) and is printed to the log, so development needs no mail server. The log
 * gets the stored text, whose tokens and links are [redacted]: a secret is never logged (the
 * owner reads it in the outbox in development, adapters/mail/index.ts).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Mailer, OutgoingMail } from './port.js';

export class OutboxMailer implements Mailer {
  readonly name = 'outbox' as const;

  constructor(private readonly log: FastifyBaseLogger) {}

  async send(mail: OutgoingMail): Promise<void> {
    this.log.info({ to: mail.to, subject: mail.subject }, `e-mail (outbox)\n${mail.loggableText ?? mail.text}`);
  }
}
