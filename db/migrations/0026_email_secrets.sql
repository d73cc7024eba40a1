ALTER TABLE "emails" ADD COLUMN "unredacted_text" text;--> statement-breakpoint
-- Hand-written data fix (issue 26, point 6): e-mails stored before this migration hold their
-- one-use tokens and subscription management links in clear. Redact them in place, as new e-mails
-- are stored (the recipients have their e-mails; the outbox no longer shows the secrets).
UPDATE "emails"
SET "text_body" = regexp_replace(
      regexp_replace(
        regexp_replace("text_body", '(Token: )[^[:space:]]+', '\1[redacted]', 'g'),
        '([?&]token=)[^[:space:]&]+', '\1[redacted]', 'g'),
      '(/api/checkout/abo/)[A-Za-z0-9_%-]+', '\1[redacted]', 'g')
WHERE "kind" IN ('customer_verify_email', 'customer_password_reset', 'vendor_invite', 'affiliate_invite',
                 'vendor_password_reset', 'affiliate_password_reset', 'abo.created');
