/** The accounting adapters: `lexware` (Lexware Office public API). */
import type { Config } from '../../config.js';
import { LexwareClient } from './lexware.js';
import type { AccountingClient } from './port.js';

export { type AccountingClient, AccountingError, type AccountingVoucher } from './port.js';

export const ACCOUNTING_PROVIDERS = ['lexware'] as const;
export type AccountingProvider = (typeof ACCOUNTING_PROVIDERS)[number];

export function accountingClient(_provider: AccountingProvider, config: Config, apiKey: string): AccountingClient {
  return new LexwareClient({ baseUrl: config.lexwareApiUrl, apiKey });
}
