/**
 * The main navigation: a sidebar of groups (Verkauf, Katalog, Digital, Finanzen, Partner,
 * Einstellungen), each a labelled list of links. An area adds its links in its own group
 * component below; a link the signed-in role may not read is left out (`useCan` on the list's
 * GET operation), the server still refusing it.
 */
import { Link, type LinkComponentProps } from '@tanstack/react-router';
import { type ReactNode, useId } from 'react';
import { useCan } from '../shared/auth.js';
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
// ---- settings group ----

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
        <FinanceGroup />
        <NavLink to="/account">{t.nav.account}</NavLink>
      </ul>
    </nav>
  );
}
