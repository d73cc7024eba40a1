/**
 * What differs between the two portals, set once by each app's main.tsx: which portal it is and
 * its sign-in calls. The calls are the generated client's (`client.POST('/api/vendor/auth/login', …)`),
 * so they stay typed by the API; the shared pages only call these.
 */
export type PortalKind = 'vendor' | 'affiliate';

/** openapi-fetch's answer: the problem in `error` when the call failed. */
export type CallResult = { error?: unknown };

export interface PortalConfig {
  kind: PortalKind;
  login(body: { email: string; password: string }): Promise<CallResult>;
  accept(body: { token: string; password: string }): Promise<CallResult>;
  requestReset(body: { email: string }): Promise<CallResult>;
  confirmReset(body: { token: string; password: string }): Promise<CallResult>;
  logout(): Promise<CallResult>;
}

let config: PortalConfig | null = null;

export function setPortalConfig(value: PortalConfig): void {
  config = value;
}

export function portalConfig(): PortalConfig {
  if (!config) throw new Error('setPortalConfig() first');
  return config;
}
