/** Routes of the shop's employees (owner only). */
import { Type } from '@sinclair/typebox';
import { ownerOnly } from '../../platform/auth/presets.js';
import { IdParams } from '../../platform/http/schemas.js';
import { deleteByIdRoute, type TypedApp } from '../../platform/http/typed-app.js';
import * as S from './identity.schemas.js';
import * as svc from './identity.service.js';

export function employeeRoutes(app: TypedApp): void {
  const tags = ['identity'];

  app.get(
    '/api/admin/employees',
    {
      config: ownerOnly,
      schema: {
        tags,
        summary: 'List employees',
        response: { 200: Type.Object({ employees: Type.Array(S.UserSchema) }) },
      },
    },
    async (request) => ({ employees: (await svc.listEmployees(request.ctx)).map(svc.userOut) }),
  );

  app.post(
    '/api/admin/employees',
    {
      config: ownerOnly,
      schema: { tags, summary: 'Add an employee', body: S.EmployeeCreate, response: { 201: S.UserSchema } },
    },
    async (request, reply) => {
      const row = await svc.createEmployee(request.ctx, request.body);
      return reply.code(201).send(svc.userOut(row));
    },
  );

  app.patch(
    '/api/admin/employees/:id',
    {
      config: ownerOnly,
      schema: {
        tags,
        summary: 'Change an employee (role, channels, password)',
        params: IdParams,
        body: S.EmployeePatch,
        response: { 200: S.UserSchema },
      },
    },
    async (request) => {
      const { id } = request.params;
      return svc.userOut(await svc.updateEmployee(request.ctx, id, request.body));
    },
  );

  deleteByIdRoute(
    app,
    '/api/admin/employees/:id',
    { config: ownerOnly, tags, summary: 'Remove an employee (not oneself: 409 own_account)' },
    svc.deleteEmployee,
  );

  app.post(
    '/api/admin/employees/:id/suspend',
    {
      config: ownerOnly,
      schema: {
        tags,
        summary: "Suspend an employee's sign-in: sessions end, logins get 403 employee_suspended (not oneself)",
        params: IdParams,
        response: { 200: S.UserSchema },
      },
    },
    async (request) => svc.userOut(await svc.suspendEmployee(request.ctx, request.params.id)),
  );

  app.post(
    '/api/admin/employees/:id/restore',
    {
      config: ownerOnly,
      schema: {
        tags,
        summary: 'Let a suspended employee sign in again',
        params: IdParams,
        response: { 200: S.UserSchema },
      },
    },
    async (request) => svc.userOut(await svc.restoreEmployee(request.ctx, request.params.id)),
  );
}
