/**
 * The built-in storefront (docs/storefront.md, "The built-in storefront"): reads its shop and
 * publishable key for this host (GET /api/storefront/bootstrap), then mounts the router.
 */
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './styles.css';
import { loadBootstrap } from './api.js';
import { rememberReferral } from './referral.js';
import { queryClient, router } from './router.js';
import { setBoot, Unavailable } from './shell.js';

// a referral link's ?ref=<code> is kept for checkout (referral.ts)
rememberReferral();

const root = document.getElementById('app');
if (root) {
  const app = createRoot(root);
  const boot = await loadBootstrap().catch(() => null);
  if (!boot) {
    app.render(<Unavailable />);
  } else {
    setBoot(boot);
    document.title = boot.shop_name;
    app.render(
      <StrictMode>
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </StrictMode>,
    );
  }
}
