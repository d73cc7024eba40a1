/** The mailer port (docs/ARCHITECTURE.md): `outbox` (default) and `smtp` (nodemailer, SMTP_URL). */

export interface Attachment {
  filename: string;
  contentType: string;
  content: Buffer;
}

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  /** The text with its secrets redacted: what a mailer may log (the stored text). */
  loggableText?: string;
  attachments?: Attachment[];
}

export interface Mailer {
  readonly name: 'outbox' | 'smtp';
  /** Delivers one stored e-mail; throws when the transport fails (the job retries). */
  send(mail: OutgoingMail): Promise<void>;
}
