/** The URL state of the vendor portal's lists: paging plus each list's filters (the API's query parameters). */
import { dayParam, enumParam, pagingSearch, textParam } from '../shared/list.js';

type Raw = Record<string, unknown>;

export const listSearch = (raw: Raw) => pagingSearch(raw);
export const earningSearch = (raw: Raw) => ({
  ...pagingSearch(raw),
  status: enumParam(raw, 'status', ['pending', 'released'] as const),
  from: dayParam(raw, 'from'),
  to: dayParam(raw, 'to'),
});
export const ledgerSearch = (raw: Raw) => ({
  ...pagingSearch(raw),
  currency: enumParam(raw, 'currency', CURRENCIES),
  from: dayParam(raw, 'from'),
  to: dayParam(raw, 'to'),
});
export const payoutSearch = (raw: Raw) => ({
  ...pagingSearch(raw),
  status: enumParam(raw, 'status', ['pending', 'processing', 'paid', 'cancelled'] as const),
});
export const statementSearch = (raw: Raw) => {
  const period = textParam(raw, 'period', 7);
  return { ...pagingSearch(raw), period: period && /^\d{4}-(0[1-9]|1[0-2])$/.test(period) ? period : undefined };
};

/** Currencies a filter offers (the API takes any ISO 4217 code; these are the shop's markets). */
export const CURRENCIES = ['EUR', 'CHF', 'GBP', 'USD', 'PLN', 'SEK', 'DKK', 'CZK'] as const;
