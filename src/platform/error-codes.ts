/**
 * Every `code` a problem document can carry, with its HTTP status and meaning: the one list
 * `AppError` takes its status from (a code missing here is a type error) and the OpenAPI
 * document publishes (`x-error-codes`, and the enum of `Problem.code`). The status rules are
 * those of docs/ARCHITECTURE.md ("Errors"): 400 invalid input, 401 no or unknown credential,
 * 403 known credential not allowed, 404 not found or another shop's, 409 conflict with the
 * current state, 413, 415, 429, 5xx the service or a provider.
 */

export interface ErrorCodeEntry {
  status: number;
  meaning: string;
  /**
   * Another status this code is answered with in one named situation, kept because clients
   * (and tests) rely on it; each is an explicit exception raised with `AppError.withStatus`.
   */
  alsoStatus?: { status: number | 'any 4xx'; when: string };
}

export const ERROR_CODES = {
  // ---- 400: the request itself is wrong -------------------------------------------------
  validation_failed: { status: 400, meaning: 'A field breaks the schema or a rule; `errors` names each field' },
  malformed_json: { status: 400, meaning: 'The body is not valid JSON' },
  invalid_content_length: { status: 400, meaning: 'Content-Length does not match the body' },
  bad_request: {
    status: 400,
    meaning: 'A request the HTTP layer refused without a more specific code',
    alsoStatus: {
      status: 'any 4xx',
      when: 'the HTTP layer (Fastify) reported another 4xx status; it is passed through',
    },
  },
  billing_country_required: { status: 400, meaning: 'company or vat_id need billing_country' },
  buyer_data_missing: { status: 400, meaning: 'The invoice buyer lacks data a final document needs' },
  seller_data_missing: { status: 400, meaning: 'The company settings lack data a document needs' },
  einvoice_data_missing: { status: 400, meaning: 'A document lacks data an EN 16931 e-invoice needs' },
  country_not_served: { status: 400, meaning: 'The channel does not deliver to this country' },
  currency_required: { status: 400, meaning: 'Balances exist in several currencies; name one' },
  direct_flow_unavailable: { status: 400, meaning: 'The channel takes payment at checkout; use the hosted flow' },
  discount_unsupported: { status: 400, meaning: 'Discount codes are not accepted here' },
  prefill_unsupported: { status: 400, meaning: 'Customer or address prefill is not accepted for subscriptions' },
  express_unsupported: { status: 400, meaning: 'Subscriptions always use the hosted flow' },
  invalid_parent: { status: 400, meaning: 'The category parent would be itself or a descendant' },
  invite_invalid: { status: 400, meaning: 'The invitation token is unknown, used or expired' },
  token_invalid: { status: 400, meaning: 'A one-time link token is unknown, used or expired' },
  period_not_started: { status: 400, meaning: 'The statement period has not started yet' },
  plan_inactive: { status: 400, meaning: 'The plan is not sold any more' },
  product_immutable: { status: 400, meaning: 'The product of a plan cannot be changed' },
  product_invalid: { status: 400, meaning: 'The product is not a digital product of this shop' },
  product_unavailable: { status: 400, meaning: 'Some items cannot be bought in this channel' },
  quantity_limit: { status: 400, meaning: 'A checkout holds more units of one product or variant than allowed' },
  return_url_denied: { status: 400, meaning: 'return_url is not on an origin the publishable key allows' },
  shipping_method_unavailable: { status: 400, meaning: 'The shipping method does not serve this address' },
  shipping_required: { status: 400, meaning: 'Physical items need a shipping address and method' },
  shop_required: { status: 400, meaning: 'The e-mail has accounts at several shops; send shop_id' },
  signature_invalid: { status: 400, meaning: 'A provider webhook signature does not verify' },
  unknown_category: { status: 400, meaning: 'category_id is not a category of this shop' },
  unknown_vendor: { status: 400, meaning: 'vendor_id is not a vendor of this shop' },
  vat_id_invalid: { status: 400, meaning: 'Not a valid EU VAT ID' },
  widerruf_verzicht_required: {
    status: 400,
    meaning: 'Digital items in the direct flow need widerruf_verzicht: true (waiver of withdrawal)',
  },

  // ---- 401: no or unknown credential ----------------------------------------------------
  unauthenticated: { status: 401, meaning: 'The route needs a credential and none was sent' },
  invalid_credential: { status: 401, meaning: 'The credential is unknown, expired or revoked' },
  invalid_credentials: {
    status: 401,
    meaning: 'Sign-in refused: e-mail or password is wrong',
    alsoStatus: {
      status: 400,
      when: 'a password change with a wrong current password (the caller is signed in; a field error on /body/current_password)',
    },
  },
  customer_session_invalid: {
    status: 401,
    meaning: 'The customer session sent with a publishable key is unknown, expired, revoked or of another shop',
  },

  // ---- 403: known credential, not allowed -----------------------------------------------
  credential_denied: { status: 403, meaning: 'The route does not accept this kind of credential' },
  scope_denied: { status: 403, meaning: 'No API token scope grants this route' },
  token_blocked: { status: 403, meaning: 'API tokens cannot use this route' },
  role_denied: { status: 403, meaning: "The employee's role may not do this" },
  owner_only: { status: 403, meaning: 'Only the shop owner may do this' },
  channel_restricted: {
    status: 403,
    meaning: 'The route covers every channel; an employee restricted to channels may not use it',
  },
  origin_denied: { status: 403, meaning: 'The Origin is missing or not on the allowlist of the publishable key' },
  policy_denied: { status: 403, meaning: 'The write policy of the shop refuses this change' },
  addon_unavailable: { status: 403, meaning: 'The digital add-on is not available to this shop' },
  addon_inactive: { status: 403, meaning: 'The digital add-on is not active' },
  account_locked: { status: 403, meaning: 'The account is locked' },
  account_suspended: { status: 403, meaning: 'The shop has suspended sign-in of this customer account' },
  employee_suspended: { status: 403, meaning: "The shop's owner has suspended sign-in of this employee" },
  vendor_inactive: { status: 403, meaning: 'The vendor account is not active' },
  affiliate_blocked: {
    status: 403,
    meaning: 'The affiliate is blocked',
    alsoStatus: { status: 409, when: 'an admin invites a blocked affiliate (the conflict is with its state)' },
  },

  // ---- 404 ------------------------------------------------------------------------------
  not_found: { status: 404, meaning: "The resource or route does not exist, or is another shop's" },
  channel_not_found: { status: 404, meaning: 'No active channel serves this storefront request' },
  plan_not_found: { status: 404, meaning: 'The plan does not exist in this shop' },

  // ---- 409: conflict with the current state ---------------------------------------------
  invalid_state: { status: 409, meaning: 'The transition is not allowed from the current state' },
  already_active: { status: 409, meaning: 'The affiliate has portal access already' },
  already_final: { status: 409, meaning: 'The document is final already' },
  document_final: { status: 409, meaning: 'A final document is immutable' },
  credit_note_not_final: { status: 409, meaning: 'Finalize the credit note first' },
  invoice_not_final: { status: 409, meaning: 'Only a final invoice allows this' },
  invoice_exists: { status: 409, meaning: 'The order has an open invoice already' },
  order_not_invoiceable: { status: 409, meaning: 'The order state does not allow an invoice' },
  fully_credited: { status: 409, meaning: 'The invoice is fully credited' },
  nothing_to_credit: { status: 409, meaning: 'The credit note would credit nothing' },
  credit_exceeds_invoice: { status: 409, meaning: 'Credits would exceed the invoice' },
  refund_exceeds_paid: { status: 409, meaning: 'The refund exceeds what is left of the payment' },
  einvoice_not_applicable: { status: 409, meaning: 'E-invoices are for business buyers only' },
  statement_final: { status: 409, meaning: 'The statement is final and cannot be recomputed' },
  period_open: { status: 409, meaning: 'The period has not ended yet' },
  below_minimum: { status: 409, meaning: 'The available balance is below the minimum payout' },
  insufficient_balance: { status: 409, meaning: 'The available balance does not cover the payout' },
  payout_open: { status: 409, meaning: 'An open payout request exists already' },
  not_releasable: { status: 409, meaning: 'Some earnings are not pending earnings of this shop' },
  channel_in_use: { status: 409, meaning: 'Other records reference the channel; deactivate it instead' },
  channel_inactive: { status: 409, meaning: 'An inactive channel cannot be the default' },
  default_channel: { status: 409, meaning: 'The default channel cannot be deactivated or deleted' },
  currency_locked: { status: 409, meaning: 'Records depend on the channel currency' },
  country_exists: { status: 409, meaning: 'The country exists already' },
  shared_country: { status: 409, meaning: 'A shared country cannot be deleted; deselect it' },
  domain_taken: { status: 409, meaning: 'The domain is mapped to a channel already' },
  path_prefix_taken: { status: 409, meaning: 'Another channel uses this path prefix' },
  slug_taken: { status: 409, meaning: 'The slug is used already' },
  sku_taken: { status: 409, meaning: 'The SKU is used already' },
  code_taken: { status: 409, meaning: 'Another affiliate has this code' },
  email_taken: { status: 409, meaning: 'Another account has this e-mail' },
  already_verified: { status: 409, meaning: 'The e-mail of the account is verified already' },
  name_taken: { status: 409, meaning: 'The name is used already' },
  saved_view_limit: { status: 409, meaning: 'The employee has the most saved views of this list allowed' },
  vendor_exists: { status: 409, meaning: 'A vendor with this e-mail exists already' },
  in_use: {
    status: 409,
    meaning: 'Other records use the record (products, subcategories, channels); change them first',
  },
  last_owner: { status: 409, meaning: 'The last owner cannot be demoted or removed' },
  own_account: { status: 409, meaning: 'An employee cannot remove or suspend their own account' },
  out_of_stock: { status: 409, meaning: 'Some items are not in stock' },
  session_expired: { status: 409, meaning: 'The checkout session has expired' },
  customer_email_mismatch: { status: 409, meaning: "A signed-in purchase uses the account's e-mail" },
  lexware_not_connected: { status: 409, meaning: 'Lexware is not connected' },
  credential_unreadable: { status: 409, meaning: 'A stored provider key cannot be decrypted; connect again' },
  idempotency_key_in_use: { status: 409, meaning: 'A request with this Idempotency-Key is still in progress' },
  idempotency_key_reused: { status: 409, meaning: 'The Idempotency-Key was used with a different request' },

  // ---- 413, 415, 429 --------------------------------------------------------------------
  body_too_large: { status: 413, meaning: 'The request body exceeds 1 MB (an image upload: UPLOAD_MAX_BYTES)' },
  unsupported_media_type: {
    status: 415,
    meaning: 'The body is not application/json (an image upload: not one of the accepted image types)',
  },
  unsupported_image: {
    status: 415,
    meaning: 'The uploaded bytes are not a PNG, JPEG, GIF, WebP or AVIF image (told by content)',
  },
  image_type_mismatch: { status: 415, meaning: "The uploaded image's content is another type than its Content-Type" },
  rate_limited: { status: 429, meaning: 'Too many requests; see Retry-After' },

  // ---- 5xx: the service or a provider ---------------------------------------------------
  internal_error: { status: 500, meaning: 'An unexpected error; quote the request id' },
  einvoice_failed: { status: 500, meaning: 'The e-invoice could not be generated' },
  provider_error: { status: 502, meaning: 'The payment provider refused or failed' },
  busy: { status: 503, meaning: 'Too many password checks at once; see Retry-After' },
  database_unavailable: { status: 503, meaning: 'The database is not reachable' },
  migrations_pending: { status: 503, meaning: 'Database migrations are not applied' },
  event_not_applied: { status: 503, meaning: 'A provider event could not be applied; it was not recorded' },
} as const satisfies Record<string, ErrorCodeEntry>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** The codes answered with `status` (by their table entry). */
export type CodeWithStatus<S extends number> = {
  [C in ErrorCode]: (typeof ERROR_CODES)[C]['status'] extends S ? C : never;
}[ErrorCode];

/** The codes that have a documented second status. */
export type CodeWithAlsoStatus = {
  [C in ErrorCode]: (typeof ERROR_CODES)[C] extends { alsoStatus: object } ? C : never;
}[ErrorCode];

/** The second status of `C`: the number in the table, or any number for 'any 4xx'. */
export type AlsoStatusOf<C extends CodeWithAlsoStatus> = (typeof ERROR_CODES)[C] extends {
  alsoStatus: { status: infer S };
}
  ? S extends number
    ? S
    : number
  : never;

export const statusOf = (code: ErrorCode): number => ERROR_CODES[code].status;

export const isErrorCode = (code: string): code is ErrorCode => Object.hasOwn(ERROR_CODES, code);
