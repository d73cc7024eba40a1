/** The SMTP mailer (nodemailer) used when SMTP_URL is set, e.g. smtp://user:pass@mail.example:587. */
import { createRequire } from 'node:module';
import type Nodemailer from 'nodemailer';
import type { Transporter } from 'nodemailer';
import type { Mailer, OutgoingMail } from './port.js';

export class SmtpMailer implements Mailer {
  readonly name = 'smtp' as const;
  private readonly transport: Transporter;

  constructor(
    url: string,
    private readonly from: string,
  ) {
    // loaded only when SMTP is configured
    const nodemailer = createRequire(import.meta.url)('nodemailer') as typeof Nodemailer;
    this.transport = nodemailer.createTransport(url);
  }

  async send(mail: OutgoingMail): Promise<void> {
    await this.transport.sendMail({
      from: this.from,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      attachments: (mail.attachments ?? []).map((a) => ({
        filename: a.filename,
        contentType: a.contentType,
        content: a.content,
      })),
    });
  }
}
