import type { Client } from 'openapi-fetch';
import type { components, operations, paths } from './schema.js';

export type { components, operations, paths };
export type CommerceClient = Client<paths>;

export interface CommerceClientOptions {
  /** The service's base URL, e.g. https://shop-api.example */
  baseUrl: string;
  /** Sent as `Authorization: Bearer …`. */
  token?: string;
  /** Sent as `Origin` (storefront calls with a publishable key outside a browser). */
  origin?: string;
  headers?: Record<string, string>;
  fetch?: (input: Request) => Promise<Response>;
}

export declare function createCommerceClient(options: CommerceClientOptions): CommerceClient;
