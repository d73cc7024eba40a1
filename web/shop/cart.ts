/**
 * The cart, kept in the browser (localStorage) and shared by every tab of the shop: product and
 * variant ids with quantities, plus what the page showed when the item was added (name, price,
 * currency) for the cart's own display. The prices that count are the server's: checkout sends only
 * ids and quantities, and the order summary shows the session's totals.
 */
import { useSyncExternalStore } from 'react';

export interface CartLine {
  product_id: string;
  variant_id: string | null;
  slug: string;
  name: string;
  variant_title: string | null;
  unit_price_cents: number;
  currency: string;
  is_digital: boolean;
  quantity: number;
}

const KEY = 'shop.cart';
const MAX_QUANTITY = 20;
const listeners = new Set<() => void>();

function read(): CartLine[] {
  try {
    const parsed = JSON.parse(localStorage.getItem(KEY) ?? '[]') as unknown;
    return Array.isArray(parsed) ? (parsed as CartLine[]).filter((l) => l && typeof l.product_id === 'string') : [];
  } catch {
    return [];
  }
}

let lines: CartLine[] = read();

function write(next: CartLine[]): void {
  lines = next;
  try {
    localStorage.setItem(KEY, JSON.stringify(next));
  } catch {
    // private mode: the cart lasts for this page
  }
  for (const listener of listeners) listener();
}

window.addEventListener('storage', (e) => {
  if (e.key !== KEY) return;
  lines = read();
  for (const listener of listeners) listener();
});

const same = (a: Pick<CartLine, 'product_id' | 'variant_id'>, b: Pick<CartLine, 'product_id' | 'variant_id'>) =>
  a.product_id === b.product_id && a.variant_id === b.variant_id;

export const clampQuantity = (n: number) => Math.max(1, Math.min(MAX_QUANTITY, Math.floor(n) || 1));

export const cart = {
  add(line: CartLine): void {
    const existing = lines.find((l) => same(l, line));
    write(
      existing
        ? lines.map((l) => (same(l, line) ? { ...l, quantity: clampQuantity(l.quantity + line.quantity) } : l))
        : [...lines, { ...line, quantity: clampQuantity(line.quantity) }],
    );
  },
  setQuantity(line: CartLine, quantity: number): void {
    write(lines.map((l) => (same(l, line) ? { ...l, quantity: clampQuantity(quantity) } : l)));
  },
  remove(line: CartLine): void {
    write(lines.filter((l) => !same(l, line)));
  },
  clear(): void {
    write([]);
  },
};

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useCart(): CartLine[] {
  return useSyncExternalStore(subscribe, () => lines);
}

export const MAX_LINE_QUANTITY = MAX_QUANTITY;
