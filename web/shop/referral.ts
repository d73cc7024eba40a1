/**
 * Affiliate attribution: a referral link (`/shop/?ref=<code>`, as the affiliate portal shows it)
 * leaves its code in the browser (localStorage `shop.ref`, 30 days, the newest link wins), and
 * checkout and subscription sessions send it as `affiliate_code`. Whether the code earns a
 * commission is the server's decision (an active affiliate of the shop with that code).
 */
const KEY = 'shop.ref';
const DAYS_30 = 30 * 86_400_000;
/** The code format of the affiliate API: 3–32 characters A–Z, a–z, 0–9, _ and -. */
const CODE = /^[A-Za-z0-9_-]{3,32}$/;

/** Keeps the `ref` of the page's URL, if it has a well-formed one (called once at start). */
export function rememberReferral(search: string = window.location.search): void {
  const code = new URLSearchParams(search).get('ref');
  if (!code || !CODE.test(code)) return;
  try {
    localStorage.setItem(KEY, JSON.stringify({ code, at: Date.now() }));
  } catch {
    // private mode: no attribution
  }
}

/** The remembered code (younger than 30 days), or undefined. */
export function referralCode(): string | undefined {
  try {
    const value = JSON.parse(localStorage.getItem(KEY) ?? 'null') as { code?: unknown; at?: unknown } | null;
    if (typeof value?.code !== 'string' || !CODE.test(value.code) || typeof value.at !== 'number') return undefined;
    return Date.now() - value.at <= DAYS_30 ? value.code : undefined;
  } catch {
    return undefined;
  }
}

/** `{ affiliate_code }` for a session body when a code is remembered, else nothing. */
export function referralField(): { affiliate_code?: string } {
  const code = referralCode();
  return code ? { affiliate_code: code } : {};
}
