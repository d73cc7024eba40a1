/**
 * Who is signed in (GET /api/auth/me, through the admin session cookie) and what the role may do:
 * the roles per operation come from the OpenAPI document's x-roles (clients/typescript/roles.js,
 * generated), so the page hides what the server would refuse. The server still enforces it.
 */
import { useQueryClient } from '@tanstack/react-query';
import { OPERATION_ROLES, type RoleGatedOperation } from '../../clients/typescript/roles.js';
import { $api, client } from './api.js';

export const meQuery = () => $api.queryOptions('get', '/api/auth/me', {}, { staleTime: 60_000, retry: false });

export type Me = NonNullable<ReturnType<typeof useMe>>;

/** The signed-in employee and shop (present inside the signed-in part of the app). */
export function useMe() {
  return $api.useQuery('get', '/api/auth/me', {}, { staleTime: 60_000, retry: false }).data;
}

/** Whether the signed-in employee's role may call an operation (`METHOD /path/{param}`). */
export function useCan(): (operation: RoleGatedOperation) => boolean {
  const me = useMe();
  return (operation) => (me ? OPERATION_ROLES[operation].includes(me.user.role) : false);
}

/**
 * The channels the employee works in: null = every channel; else only these ids (an empty list:
 * none). Channel pickers offer only these; the server filters lists and answers 404 outside them.
 */
export function useChannelScope(): string[] | null {
  const me = useMe();
  return me?.user.channel_restricted ? me.user.channel_ids : null;
}

export function useSignOut(): () => Promise<void> {
  const queryClient = useQueryClient();
  return async () => {
    await client.POST('/api/auth/logout');
    queryClient.clear();
  };
}
