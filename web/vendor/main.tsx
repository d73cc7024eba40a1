/**
 * The vendor portal (docs/portals.md): the invitation link lands on /vendor/accept, then sign-in
 * and the vendor's own data through the /api/vendor/* reads. The session is the `vsid` cookie.
 */
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '../portal/styles.css';
import { setPortalConfig } from '../portal/config.js';
import { setPortalRouter } from '../portal/nav.js';
import { installSessionHandler } from '../portal/shell.js';
import { client } from '../shared/api.js';
import { queryClient, router } from './router.js';

setPortalConfig({
  kind: 'vendor',
  login: (body) => client.POST('/api/vendor/auth/login', { body }),
  accept: (body) => client.POST('/api/vendor/auth/accept', { body }),
  requestReset: (body) => client.POST('/api/vendor/auth/password-reset', { body }),
  confirmReset: (body) => client.POST('/api/vendor/auth/password-reset/confirm', { body }),
  logout: () => client.POST('/api/vendor/auth/logout'),
});
setPortalRouter(router, '/vendor');
installSessionHandler(() => queryClient.clear());

const root = document.getElementById('app');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </StrictMode>,
  );
}
