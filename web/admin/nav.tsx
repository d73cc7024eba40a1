/**
 * The main navigation: a sidebar of groups (Verkauf, Katalog, Digital, Finanzen, Partner,
 * Einstellungen, Zugänge und Webhooks), each a labelled list of links. An area adds its links in its own group
 * component below; a link the signed-in role may not read is left out (`useCan` on the list's
 * GET operation), the server still refusing it.
 */
import { Link, type LinkComponentProps, useRouterState } from '@tanstack/react-router';
import { type ReactNode, useId, useState } from 'react';
import { $api } from '../shared/api.js';
import { useCan, useChannelScope } from '../shared/auth.js';
import { useT } from '../shared/i18n/index.js';

/** One entry of the sidebar: a router link marked `aria-current="page"` when it is the page shown. */
export function NavLink(props: LinkComponentProps<'a'>) {
  return (
    <li>
      <Link {...props} activeProps={{ 'aria-current': 'page' }} />
    </li>
  );
}

/** A labelled group of links (the label is not a heading: the page's h1 stays the first heading). */
export function NavGroup({ label, children }: { label: string; children: ReactNode }) {
  const id = useId();
  return (
    <li className="nav-group">
      <span id={id} className="nav-group-label">
        {label}
      </span>
      <ul aria-labelledby={id}>{children}</ul>
    </li>
  );
}

function SalesGroup() {
  const t = useT();
  const can = useCan();
  return (
    <NavGroup label={t.nav.groups.sales}>
      <NavLink to="/orders" search={{ page: 1, limit: 25 }}>
        {t.nav.orders}
      </NavLink>
      {/* ---- sales: customers ---- */}
      {can('GET /api/admin/customers') ? (
        <NavLink to="/customers" search={{ page: 1, limit: 25 }}>
          {t.nav.customers}
        </NavLink>
      ) : null}
    </NavGroup>
  );
}

function CatalogGroup() {
  const t = useT();
  return (
    <NavGroup label={t.nav.groups.catalog}>
      <NavLink to="/products" search={{ page: 1, limit: 25 }}>
        {t.products.nav.products}
      </NavLink>
      <NavLink to="/categories" search={{ page: 1, limit: 25 }}>
        {t.products.nav.categories}
      </NavLink>
      <NavLink to="/brands" search={{ page: 1, limit: 25 }}>
        {t.products.nav.brands}
      </NavLink>
      <NavLink to="/suppliers" search={{ page: 1, limit: 25 }}>
        {t.products.nav.suppliers}
      </NavLink>
      <NavLink to="/channels">{t.channels.nav}</NavLink>
    </NavGroup>
  );
}

// ---- digital group ----
/**
 * The digital add-on: its status always (it says when the add-on is not available); plans,
 * subscriptions and statistics once the platform has made the add-on available.
 */
function DigitalGroup() {
  const t = useT();
  const can = useCan();
  const status = $api.useQuery('get', '/api/admin/digital/status', {}, { staleTime: 60_000 });
  const allowed = status.data?.erlaubt === true;
  return (
    <NavGroup label={t.nav.groups.digital}>
      <NavLink to="/digital" activeOptions={{ exact: true }}>
        {t.nav.digitalStatus}
      </NavLink>
      {allowed && can('GET /api/admin/digital/plaene') ? <NavLink to="/digital/plaene">{t.nav.plans}</NavLink> : null}
      {allowed && can('GET /api/admin/digital/abos') ? (
        <NavLink to="/digital/abos" search={{ page: 1, limit: 25 }}>
          {t.nav.abos}
        </NavLink>
      ) : null}
      {allowed && can('GET /api/admin/digital/abos/statistik/verlauf') ? (
        <NavLink to="/digital/statistik">{t.nav.abosStatistik}</NavLink>
      ) : null}
    </NavGroup>
  );
}

// ---- finance group ----
/** Invoices, credit notes, the Lexware accounting and the company data invoices carry. */
function FinanceGroup() {
  const t = useT();
  const can = useCan();
  const links = [
    can('GET /api/admin/invoices') ? (
      <NavLink key="inv" to="/finance/invoices" search={{ page: 1, limit: 25 }}>
        {t.nav.invoices}
      </NavLink>
    ) : null,
    can('GET /api/admin/credit-notes') ? (
      <NavLink key="cn" to="/finance/credit-notes" search={{ page: 1, limit: 25 }}>
        {t.nav.creditNotes}
      </NavLink>
    ) : null,
    can('GET /api/admin/accounting/syncs') ? (
      <NavLink key="acc" to="/finance/accounting" search={{ page: 1, limit: 25, status: 'failed' }}>
        {t.nav.accounting}
      </NavLink>
    ) : null,
    can('GET /api/admin/settings/company') ? (
      <NavLink key="co" to="/settings/company">
        {t.nav.company}
      </NavLink>
    ) : null,
  ].filter(Boolean);
  if (links.length === 0) return null;
  return <NavGroup label={t.nav.groups.finance}>{links}</NavGroup>;
}
// ---- partners group ----
function PartnersGroup() {
  const t = useT();
  const can = useCan();
  const vendors = can('GET /api/admin/vendors');
  const affiliates = can('GET /api/admin/affiliates');
  const content = can('GET /api/admin/affiliate-content');
  const settings = can('GET /api/admin/settings/partners');
  if (!vendors && !affiliates && !content && !settings) return null;
  return (
    <NavGroup label={t.nav.groups.partners}>
      {vendors ? (
        <NavLink to="/partners/vendors" search={{ page: 1, limit: 25 }}>
          {t.nav.partners.vendors}
        </NavLink>
      ) : null}
      {affiliates ? (
        <NavLink to="/partners/affiliates" search={{ page: 1, limit: 25 }}>
          {t.nav.partners.affiliates}
        </NavLink>
      ) : null}
      {content ? (
        <NavLink to="/partners/affiliate-content" search={{ page: 1, limit: 25 }}>
          {t.nav.partners.content}
        </NavLink>
      ) : null}
      {settings ? <NavLink to="/partners/settings">{t.nav.partners.settings}</NavLink> : null}
    </NavGroup>
  );
}
// ---- settings group ----
/** Einstellungen: the shop's operations (checkout, shipping, payment events, outbox) and access. */
export function SettingsGroup() {
  const t = useT();
  const can = useCan();
  const links = [
    can('GET /api/admin/settings/checkout') ? (
      <NavLink key="checkout" to="/settings/checkout">
        {t.nav.checkoutSettings}
      </NavLink>
    ) : null,
    can('GET /api/admin/settings/payment-methods') ? (
      <NavLink key="payment-methods" to="/settings/payment-methods">
        {t.nav.paymentMethods}
      </NavLink>
    ) : null,
    can('GET /api/admin/shipping-methods') ? (
      <NavLink key="shipping" to="/settings/shipping">
        {t.nav.shippingMethods}
      </NavLink>
    ) : null,
    can('GET /api/admin/payment-events') ? (
      <NavLink key="events" to="/settings/payment-events" search={{ page: 1, limit: 25 }}>
        {t.nav.paymentEvents}
      </NavLink>
    ) : null,
    can('GET /api/admin/emails') ? (
      <NavLink key="emails" to="/settings/emails" search={{ page: 1, limit: 25 }}>
        {t.nav.emails}
      </NavLink>
    ) : null,
  ].filter(Boolean);
  return (
    <NavGroup label={t.nav.groups.settings}>
      {links}
      {/* ---- settings: access ---- */}
    </NavGroup>
  );
}

/** Access and webhooks: employees (owner), API tokens and keys, webhooks, the storefront (owner or admin). */
function AccessGroup() {
  const t = useT();
  const can = useCan();
  // webhooks are the whole shop's: a channel-restricted employee is refused them
  const allChannels = useChannelScope() === null;
  const links = [
    can('GET /api/admin/employees') ? (
      <NavLink key="employees" to="/access/employees">
        {t.nav.access.employees}
      </NavLink>
    ) : null,
    can('GET /api/admin/api-tokens') ? (
      <NavLink key="api" to="/access/api">
        {t.nav.access.apiAccess}
      </NavLink>
    ) : null,
    can('GET /api/admin/checkout/webhook/deliveries') && allChannels ? (
      <NavLink key="webhooks" to="/access/webhooks" search={{ page: 1, limit: 25 }}>
        {t.nav.access.webhooks}
      </NavLink>
    ) : null,
    can('GET /api/admin/storefront-settings') ? (
      <NavLink key="storefront" to="/access/storefront">
        {t.nav.access.storefront}
      </NavLink>
    ) : null,
  ].filter(Boolean);
  if (links.length === 0) return null;
  return <NavGroup label={t.nav.groups.access}>{links}</NavGroup>;
}

export function MainNav() {
  const t = useT();
  // On a narrow screen the links fold away behind a "Menü" button (styles.css); a followed link
  // folds them again.
  const [open, setOpen] = useState(false);
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  const [shownFor, setShownFor] = useState(pathname);
  if (shownFor !== pathname) {
    setShownFor(pathname);
    setOpen(false);
  }
  const listId = useId();
  return (
    <nav aria-label={t.nav.main} className={open ? 'main-nav foldable open' : 'main-nav foldable'}>
      <button
        type="button"
        className="nav-toggle"
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen((value) => !value)}
      >
        {t.nav.menu}
      </button>
      <ul id={listId}>
        <NavLink to="/" activeOptions={{ exact: true }}>
          {t.home.nav}
        </NavLink>
        <SalesGroup />
        <CatalogGroup />
        <DigitalGroup />
        <FinanceGroup />
        <PartnersGroup />
        <SettingsGroup />
        <AccessGroup />
        <NavLink to="/account">{t.nav.account}</NavLink>
      </ul>
    </nav>
  );
}
