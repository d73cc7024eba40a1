/**
 * The main navigation: a sidebar of groups (Verkauf, Katalog, Digital, Finanzen, Partner,
 * Einstellungen), each a labelled list of links. An area adds its links in its own group
 * component below; a link the signed-in role may not read is left out (`useCan` on the list's
 * GET operation), the server still refusing it.
 */
import { Link, type LinkComponentProps } from '@tanstack/react-router';
import { type ReactNode, useId } from 'react';
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
  return (
    <NavGroup label={t.nav.groups.sales}>
      <NavLink to="/orders" search={{ page: 1, limit: 25 }}>
        {t.nav.orders}
      </NavLink>
      {/* ---- sales: customers ---- */}
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
// ---- finance group ----
// ---- partners group ----
// ---- settings group ----

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
  return (
    <nav aria-label={t.nav.main} className="main-nav">
      <ul>
        <NavLink to="/" activeOptions={{ exact: true }}>
          {t.home.nav}
        </NavLink>
        <SalesGroup />
        <CatalogGroup />
        {/* ---- groups ---- */}
        <AccessGroup />
        <NavLink to="/account">{t.nav.account}</NavLink>
      </ul>
    </nav>
  );
}
