/**
 * The credentials a route accepts, named once: routes write `config: manageMoney` instead of
 * spelling an AuthSpec, so one name has one meaning everywhere. One hook
 * (modules/identity/authorize.ts) enforces them. A route with an unusual mix still writes its own
 * `{ auth: … }` (e.g. a publishable key that also takes a signed-in customer).
 */
import { type Actor, type AuthSpec, CATALOG_WRITERS, type CredentialKind, type Ctx, MANAGERS } from './types.js';

/** A preset keeps the credential kinds it accepts in its type, so `actorOf` knows the caller's. */
type Preset<A extends AuthSpec['accepts']> = { auth: AuthSpec & { accepts: A } };
const preset = <const A extends AuthSpec['accepts']>(auth: AuthSpec & { accepts: A }): Preset<A> => ({ auth });

/** The actor a route with `preset` runs for: one of the credential kinds the preset accepts. */
export type ActorOf<P> =
  P extends Preset<infer A> ? (A extends (infer K)[] ? Extract<Actor, { kind: K }> : never) : never;

/**
 * The caller of a route declared with `preset` (`actorOf(request.ctx, customerSession).customerId`),
 * typed by the kinds the preset accepts. The authorization hook let only those through, so any
 * other actor here is a route declared with another preset than it names: a bug, not a 401.
 */
export function actorOf<K extends CredentialKind>(
  ctx: Pick<Ctx, 'actor'>,
  preset: Preset<K[]>,
): Extract<Actor, { kind: K }> {
  const { actor } = ctx;
  if (!actor || !(preset.auth.accepts as CredentialKind[]).includes(actor.kind)) {
    throw new Error(`the route's actor is ${actor?.kind ?? 'none'}, not one its preset accepts`);
  }
  return actor as Extract<Actor, { kind: K }>;
}

/** No credential: sign-in, hosted pages, provider webhooks, health. */
export const publicRoute = preset({ accepts: 'public' });
/** The platform operator (PLATFORM_TOKEN). */
export const platformOperator = preset({ accepts: ['platform'] });

/** Any signed-in employee, whatever the role: reading the shop's configuration. */
export const anyEmployee = preset({ accepts: ['admin'] });
/** Only the shop owner. */
export const ownerOnly = preset({ accepts: ['admin'], ownerOnly: true });
/**
 * Owner or admin signed in: changing the shop's configuration (channels, shipping, employees,
 * categories and brands, checkout settings). API tokens are not accepted (403 credential_denied).
 */
export const configureShop = preset({ accepts: ['admin'], roles: MANAGERS });
/**
 * Owner or admin signed in: moving money or partners (finance, vendors, affiliates, payouts,
 * webhooks). API tokens are refused explicitly (403 token_blocked), whatever their scopes.
 */
export const manageMoney = preset({ accepts: ['admin'], roles: MANAGERS, tokenBlocked: true });
/**
 * Owner, admin or viewer signed in: reading the shop's finance documents, company data and
 * accounting state (a viewer sees finance but cannot change it: issue 31). API tokens are refused
 * (403 token_blocked), as for `manageMoney`.
 */
export const readMoney = preset({ accepts: ['admin'], roles: ['owner', 'admin', 'viewer'], tokenBlocked: true });
/** Owner or admin, or an API token with finance:read: reading money and partners. */
export const readFinance = preset({ accepts: ['admin', 'token'], scope: 'finance:read', roles: MANAGERS });
/**
 * `manageMoney` and `readFinance` over every channel at once, where a record cannot be narrowed to
 * channels (partner balances, earnings, payouts and statements; the webhook endpoint and its
 * delivery log): an employee restricted to channels is refused with 403 channel_restricted
 * (docs/decisions.md "Channel restriction of order-derived records").
 */
export const manageMoneyAllChannels = preset({ ...manageMoney.auth, allChannels: true });
export const readFinanceAllChannels = preset({ ...readFinance.auth, allChannels: true });

/**
 * Customers' personal data (GET /api/admin/customers…): owner, admin or viewer signed in; catalog
 * editors and API tokens are not (no token scope covers personal data).
 */
export const readCustomers = preset({ accepts: ['admin'], roles: ['owner', 'admin', 'viewer'] });
/** Changing a customer account or exporting its data (suspend, restore, resend, export): owner or admin signed in. */
export const manageCustomers = preset({ accepts: ['admin'], roles: MANAGERS });

/** Any employee, with the digital add-on available and active. */
export const readDigital = preset({ accepts: ['admin'], gate: 'digital' });
/** Owner or admin, with the digital add-on available and active: plans and subscriptions. */
export const manageDigital = preset({ accepts: ['admin'], roles: MANAGERS, gate: 'digital' });

/** Any employee, or an API token with catalog:read (catalog:write implies it). */
export const readCatalog = preset({ accepts: ['admin', 'token'], scope: 'catalog:read' });
/** A catalog writer (owner, admin, catalog editor), or an API token with catalog:write. */
export const writeCatalog = preset({ accepts: ['admin', 'token'], scope: 'catalog:write', roles: CATALOG_WRITERS });
/** A catalog writer signed in (no API token): catalog changes that only people make. */
export const writeCatalogSignedIn = preset({ accepts: ['admin'], roles: CATALOG_WRITERS });

/** A storefront: the publishable key plus an allowed Origin. */
export const storefrontKey = preset({ accepts: ['publishable'] });
/** A signed-in customer of a storefront. */
export const customerSession = preset({ accepts: ['customer'] });
/** A signed-in vendor (vendor portal). */
export const vendorPortal = preset({ accepts: ['vendor'] });
/** A signed-in affiliate (affiliate portal). */
export const affiliatePortal = preset({ accepts: ['affiliate'] });
