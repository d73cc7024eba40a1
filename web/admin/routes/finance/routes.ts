/**
 * The finance area's routes: invoices and credit notes (lists with status, issue-date and number
 * filters in the URL; details), the company data with its e-invoice readiness, and the Lexware
 * accounting connection with its syncs.
 */
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { $api } from '../../../shared/api.js';
import {
  dayParam,
  enumParam,
  type Paging,
  pagingSearch,
  searchValidator,
  serverPaging,
  textParam,
} from '../../../shared/list.js';
import { signedInRoute } from '../../route-base.js';

export const INVOICE_STATUSES = ['draft', 'final', 'partially_credited', 'credited'] as const;
export const CREDIT_NOTE_STATUSES = ['draft', 'final'] as const;
export const SYNC_FILTERS = ['failed', 'pending', 'synced', 'cancelled', 'all'] as const;

export interface DocumentSearch<S extends string> extends Paging {
  q?: string | undefined;
  status?: S | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

const documentSearch = <S extends string>(statuses: readonly S[]) =>
  searchValidator(
    (raw): DocumentSearch<S> => ({
      ...pagingSearch(raw),
      q: textParam(raw, 'q'),
      status: enumParam(raw, 'status', statuses),
      from: dayParam(raw, 'from'),
      to: dayParam(raw, 'to'),
    }),
  );

export const invoiceListQuery = (s: DocumentSearch<(typeof INVOICE_STATUSES)[number]>) =>
  $api.queryOptions('get', '/api/admin/invoices', {
    params: { query: { ...serverPaging(s), q: s.q, status: s.status, issued_from: s.from, issued_to: s.to } },
  });

export const creditNoteListQuery = (s: DocumentSearch<(typeof CREDIT_NOTE_STATUSES)[number]>) =>
  $api.queryOptions('get', '/api/admin/credit-notes', {
    params: { query: { ...serverPaging(s), q: s.q, status: s.status, issued_from: s.from, issued_to: s.to } },
  });

export const syncListQuery = (s: Paging & { status: (typeof SYNC_FILTERS)[number] }) =>
  $api.queryOptions('get', '/api/admin/accounting/syncs', {
    params: { query: { ...serverPaging(s), status: s.status === 'all' ? undefined : s.status } },
  });

export const invoicesRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'finance/invoices',
  validateSearch: documentSearch(INVOICE_STATUSES),
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => void context.queryClient.prefetchQuery(invoiceListQuery(deps)),
  component: lazyRouteComponent(() => import('./invoice-list/page.js'), 'InvoiceListPage'),
});

export const invoiceRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'finance/invoices/$id',
  loader: ({ context, params }) =>
    void context.queryClient.prefetchQuery(
      $api.queryOptions('get', '/api/admin/invoices/{id}', { params: { path: { id: params.id } } }),
    ),
  component: lazyRouteComponent(() => import('./invoice-detail/page.js'), 'InvoiceDetailPage'),
});

export const creditNotesRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'finance/credit-notes',
  validateSearch: documentSearch(CREDIT_NOTE_STATUSES),
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => void context.queryClient.prefetchQuery(creditNoteListQuery(deps)),
  component: lazyRouteComponent(() => import('./credit-note-list/page.js'), 'CreditNoteListPage'),
});

export const creditNoteRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'finance/credit-notes/$id',
  loader: ({ context, params }) =>
    void context.queryClient.prefetchQuery(
      $api.queryOptions('get', '/api/admin/credit-notes/{id}', { params: { path: { id: params.id } } }),
    ),
  component: lazyRouteComponent(() => import('./credit-note-detail/page.js'), 'CreditNoteDetailPage'),
});

export const accountingRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'finance/accounting',
  validateSearch: searchValidator((raw) => ({
    ...pagingSearch(raw),
    status: enumParam(raw, 'status', SYNC_FILTERS) ?? 'failed',
  })),
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => void context.queryClient.prefetchQuery(syncListQuery(deps)),
  component: lazyRouteComponent(() => import('./accounting/page.js'), 'AccountingPage'),
});

export const companyRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'settings/company',
  loader: ({ context }) =>
    void context.queryClient.prefetchQuery($api.queryOptions('get', '/api/admin/settings/company')),
  component: lazyRouteComponent(() => import('./company/page.js'), 'CompanyPage'),
});

export const financeRoutes = [
  invoicesRoute,
  invoiceRoute,
  creditNotesRoute,
  creditNoteRoute,
  accountingRoute,
  companyRoute,
];
