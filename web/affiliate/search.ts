/** The URL state of the affiliate portal's lists: paging plus each list's filters (the API's query parameters). */
import { enumParam, pagingSearch } from '../shared/list.js';

type Raw = Record<string, unknown>;

export const earningSearch = (raw: Raw) => ({
  ...pagingSearch(raw),
  status: enumParam(raw, 'status', ['pending', 'released'] as const),
});
export const payoutSearch = (raw: Raw) => pagingSearch(raw);
export const contentSearch = (raw: Raw) => ({
  ...pagingSearch(raw),
  kind: enumParam(raw, 'kind', ['link', 'banner', 'text'] as const),
});
