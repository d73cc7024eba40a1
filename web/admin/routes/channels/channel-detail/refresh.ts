/** Invalidates what a change of the channel touches (the channel and the channel list). */
import { useQueryClient } from '@tanstack/react-query';

export function useRefreshChannel() {
  const queryClient = useQueryClient();
  return async () => {
    await queryClient.invalidateQueries({ queryKey: ['get', '/api/admin/channels/{id}'] });
    await queryClient.invalidateQueries({ queryKey: ['get', '/api/admin/channels'] });
  };
}
