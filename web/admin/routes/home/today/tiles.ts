/**
 * The overview's tile links (an API list and its filter) as admin screens. Only lists that have a
 * screen become links; the others show their count without one (no dead links). A screen added
 * later adds its path here.
 */
import type { LinkProps } from '@tanstack/react-router';
import { ORDER_STATUSES } from '../../../router.js';
import { DELIVERY_STATUSES } from '../../access/routes.js';
import { INVOICE_STATUSES, SYNC_FILTERS } from '../../finance/routes.js';
import { EMAIL_STATUSES } from '../../settings/routes.js';

export interface ApiLink {
  path: string;
  query: Record<string, string>;
}

export const TILE_KEYS = [
  'orders_paid_unfulfilled',
  'orders_unpaid_due_soon',
  'refunds_pending',
  'refunds_failed',
  'invoices_draft',
  'accounting_failed',
  'webhooks_dead',
  'emails_failed',
] as const;
export type TileKey = (typeof TILE_KEYS)[number];

const isStatus = (v: string | undefined): v is (typeof ORDER_STATUSES)[number] =>
  v !== undefined && (ORDER_STATUSES as readonly string[]).includes(v);

const isEmailStatus = (v: string | undefined): v is (typeof EMAIL_STATUSES)[number] =>
  v !== undefined && (EMAIL_STATUSES as readonly string[]).includes(v);

const isDeliveryStatus = (v: string | undefined): v is (typeof DELIVERY_STATUSES)[number] =>
  v !== undefined && (DELIVERY_STATUSES as readonly string[]).includes(v);

/** The screen a tile opens, or null when no screen shows that list yet. */
export function screenOf(link: ApiLink | null): Pick<LinkProps, 'to' | 'search'> | null {
  if (!link) return null;
  if (link.path === '/api/admin/orders') {
    const status = link.query.status;
    return {
      to: '/orders',
      search: { page: 1, limit: 25, status: isStatus(status) ? status : undefined, q: link.query.q },
    };
  }
  if (link.path === '/api/admin/emails') {
    const status = link.query.status;
    return {
      to: '/settings/emails',
      search: { page: 1, limit: 25, status: isEmailStatus(status) ? status : undefined },
    };
  }
  if (link.path === '/api/admin/checkout/webhook/deliveries') {
    const status = link.query.status;
    return {
      to: '/access/webhooks',
      search: { page: 1, limit: 25, status: isDeliveryStatus(status) ? status : undefined },
    };
  }
  if (link.path === '/api/admin/invoices') {
    const status = link.query.status;
    return {
      to: '/finance/invoices',
      search: {
        page: 1,
        limit: 25,
        status: (INVOICE_STATUSES as readonly string[]).includes(status ?? '')
          ? (status as (typeof INVOICE_STATUSES)[number])
          : undefined,
      },
    };
  }
  if (link.path === '/api/admin/accounting/syncs') {
    const status = link.query.status;
    return {
      to: '/finance/accounting',
      search: {
        page: 1,
        limit: 25,
        status: (SYNC_FILTERS as readonly string[]).includes(status ?? '')
          ? (status as (typeof SYNC_FILTERS)[number])
          : 'all',
      },
    };
  }
  return null;
}
