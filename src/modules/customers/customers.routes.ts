/** Admin routes of customers (docs/customers.md): list, detail, suspend, restore, resend, export. */
import { manageCustomers, readCustomers } from '../../platform/auth/presets.js';
import { pageOf } from '../../platform/http/schemas.js';
import type { TypedApp } from '../../platform/http/typed-app.js';
import { customerAccountOut, resendCustomerVerification, restoreCustomer, suspendCustomer } from '../identity/index.js';
import * as S from './customers.schemas.js';
import * as svc from './customers.service.js';

const tags = ['customers'];

export function customerRoutes(app: TypedApp): void {
  app.get(
    '/api/admin/customers',
    {
      config: readCustomers,
      schema: {
        tags,
        summary: 'Customer accounts and guest buyers (order e-mails without an account), one page with the exact count',
        querystring: S.CustomerListQuery,
        response: { 200: S.CustomerList },
      },
    },
    async (request) => svc.listCustomers(request.ctx, { ...request.query, ...pageOf(request.query) }),
  );

  app.get(
    '/api/admin/customers/:id',
    {
      config: readCustomers,
      schema: {
        tags,
        summary:
          'A customer account with the newest 10 of its orders, subscriptions and invoices (guests have no detail)',
        params: S.CustomerParams,
        response: { 200: S.CustomerDetail },
      },
    },
    async (request) => svc.customerDetail(request.ctx, request.params.id),
  );

  const change = [
    {
      path: 'suspend',
      summary: 'Suspend sign-in: every session ends, logins are refused with 403 account_suspended',
      run: suspendCustomer,
    },
    { path: 'restore', summary: 'Let a suspended customer sign in again', run: restoreCustomer },
    {
      path: 'resend-verification',
      summary: 'Send the verification e-mail again (409 already_verified)',
      run: resendCustomerVerification,
    },
  ] as const;
  for (const c of change) {
    app.post(
      `/api/admin/customers/:id/${c.path}`,
      {
        config: manageCustomers,
        schema: { tags, summary: c.summary, params: S.CustomerParams, response: { 200: S.CustomerOut } },
      },
      async (request) => {
        const { row } = await svc.visibleAccount(request.ctx, request.params.id);
        return { customer: customerAccountOut(await c.run(request.ctx, row.id)) };
      },
    );
  }

  app.get(
    '/api/admin/customers/:id/export',
    {
      config: manageCustomers,
      schema: {
        tags,
        summary:
          'Everything the shop holds about the customer as JSON (GDPR access request): account, addresses, orders with lines, subscriptions, invoices, consents',
        params: S.CustomerParams,
        response: { 200: S.CustomerExport },
      },
    },
    async (request, reply) => {
      const data = await svc.customerExport(request.ctx, request.params.id);
      reply.header('content-disposition', `attachment; filename="customer-${data.account.id}.json"`);
      return data;
    },
  );
}
