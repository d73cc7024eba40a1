/**
 * OperationIds of the OpenAPI document: the method names of generated clients, so they must be
 * stable and unique. Curated names (OPERATION_IDS) win; a route missing from the map (added
 * later) gets a derived name, and where that collides, a name spelled out from the whole path.
 */
import { OPERATION_IDS } from './operation-ids.map.js';

const pascal = (s: string): string =>
  s
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]?.toUpperCase() + w.slice(1))
    .join('');

function singular(word: string): string {
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.endsWith('sses') || word.endsWith('xes')) return word.slice(0, -2);
  if (word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

const isParam = (seg: string): boolean => seg.startsWith('{');
const VERBS: Record<string, string> = { get: 'get', put: 'set', patch: 'update', delete: 'delete', post: 'create' };

/**
 * A readable name from method and OpenAPI path: `GET /api/admin/products` → listProducts,
 * `GET /api/admin/products/{id}` → getProduct, `POST /api/admin/orders/{id}/cancel` →
 * cancelOrder, `GET /api/store/products` → listStoreProducts.
 */
export function deriveOperationId(method: string, path: string): string {
  const m = method.toLowerCase();
  const segs = path.split('/').filter((s) => s && s !== 'api' && s !== 'admin');
  const literals = segs.filter((s) => !isParam(s));
  const last = segs.at(-1) ?? 'root';
  const endsInParam = isParam(last);
  if (endsInParam) {
    // an item: getProduct, updateChannelDomain
    const words = literals.map((w, i) => (i === literals.length - 1 ? singular(w) : w));
    return `${VERBS[m] ?? m}${pascal(words.join(' '))}`;
  }
  const beforeLastIsParam = segs.length > 1 && isParam(segs.at(-2) ?? '');
  if (m === 'post' && beforeLastIsParam) {
    // an action on an item: cancelOrder, finalizeInvoice, kuendigenAbo
    const owner = literals.slice(0, -1).map((w, i, a) => (i === a.length - 1 ? singular(w) : w));
    return `${last.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())}${pascal(owner.join(' '))}`;
  }
  if (m === 'get') return `list${pascal(literals.join(' '))}`;
  if (m === 'post') {
    const words = literals.map((w, i) => (i === literals.length - 1 ? singular(w) : w));
    return `create${pascal(words.join(' '))}`;
  }
  return `${VERBS[m] ?? m}${pascal(literals.join(' '))}`;
}

/** A name that cannot collide: the method and every path segment, parameters as `ByX`. */
export function fullOperationId(method: string, path: string): string {
  const segs = path.split('/').filter(Boolean);
  const words = segs.map((s) => (isParam(s) ? `by ${s.slice(1, -1)}` : s));
  return `${method.toLowerCase()}${pascal(words.join(' '))}`;
}

/**
 * Assigns an operationId to every operation of `paths` (OpenAPI path → method → operation),
 * curated names first, then derived ones in path order, so the result does not depend on the
 * order in which routes were registered.
 */
export function assignOperationIds(paths: Record<string, Record<string, { operationId?: string }>>): void {
  const taken = new Set<string>();
  const pending: { op: { operationId?: string }; method: string; path: string }[] = [];
  for (const path of Object.keys(paths).sort()) {
    for (const [method, op] of Object.entries(paths[path] ?? {})) {
      const curated = op.operationId ?? OPERATION_IDS[`${method.toUpperCase()} ${path}`];
      if (curated && !taken.has(curated)) {
        op.operationId = curated;
        taken.add(curated);
      } else pending.push({ op, method, path });
    }
  }
  for (const { op, method, path } of pending) {
    let id = deriveOperationId(method, path);
    if (taken.has(id)) id = fullOperationId(method, path);
    for (let n = 2; taken.has(id); n++) id = `${fullOperationId(method, path)}${n}`;
    op.operationId = id;
    taken.add(id);
  }
}
