/**
 * The affiliate portal (docs/portals.md): the invitation link lands on /affiliate/accept, then sign-in,
 * the code and referral link, commissions, payouts (and requesting one), promotional material
 * through /api/affiliate/*. The session is the `asid` cookie.
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
  kind: 'affiliate',
  login: (body) => client.POST('/api/affiliate/auth/login', { body }),
  accept: (body) => client.POST('/api/affiliate/auth/accept', { body }),
  requestReset: (body) => client.POST('/api/affiliate/auth/password-reset', { body }),
  confirmReset: (body) => client.POST('/api/affiliate/auth/password-reset/confirm', { body }),
  logout: () => client.POST('/api/affiliate/auth/logout'),
});
setPortalRouter(router, '/affiliate');
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
