/** Routes of the seller's company data and its e-invoice readiness (docs/finance.md). */
import { manageMoney, readMoney } from '../../platform/auth/presets.js';
import type { TypedApp } from '../../platform/http/typed-app.js';
import * as S from './finance.schemas.js';
import * as settings from './settings.service.js';

export function companySettingsRoutes(app: TypedApp): void {
  app.get(
    '/api/admin/settings/company',
    {
      config: readMoney,
      schema: {
        tags: ['finance'],
        summary: "The seller's company data printed on invoices, and the number formats",
        response: { 200: S.CompanySettings },
      },
    },
    async (request) => settings.settingsOut(await settings.loadSettings(request.ctx)),
  );

  app.put(
    '/api/admin/settings/company',
    {
      config: manageMoney,
      schema: {
        tags: ['finance'],
        summary: 'Set company data (legal name, address, VAT ID, tax number, bank, footer, number formats)',
        body: S.CompanySettingsPut,
        response: { 200: S.CompanySettings },
      },
    },
    async (request) => settings.settingsOut(await settings.putSettings(request.ctx, request.body)),
  );

  app.get(
    '/api/admin/settings/company/einvoice-readiness',
    {
      config: readMoney,
      schema: {
        tags: ['finance'],
        summary: 'What a valid e-invoice still lacks of the company data (the checks finalization and the writer run)',
        response: { 200: S.EinvoiceReadiness },
      },
    },
    async (request) => settings.einvoiceReadiness(await settings.loadSettings(request.ctx)),
  );
}
