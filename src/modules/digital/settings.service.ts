/** The add-on settings (docs/digital.md): `erlaubt` is the platform's, the rest the shop's. */
import type { Static } from '@sinclair/typebox';
import type { Ctx } from '../../platform/auth/types.js';
import { AppError, notFound } from '../../platform/errors.js';
import { type ShopRow, setShopDigitalSettings, shopOf } from '../shops/index.js';
import type { StatusPut } from './plans.schemas.js';

type Provision = 'erste' | 'monate' | 'immer';

export const statusOut = (s: ShopRow) => ({
  erlaubt: s.digitalAllowed,
  aktiv: s.digitalActive,
  abo_provision: s.aboProvision as Provision,
  abo_provision_monate: s.aboProvisionMonate ?? null,
});

export async function getStatus(ctx: Ctx): Promise<ShopRow> {
  const row = await shopOf(ctx);
  if (!row) throw notFound('Shop');
  return row;
}

export type StatusInput = Static<typeof StatusPut>;

/** Changes the shop's settings; only when the platform made the add-on available. */
export async function putStatus(ctx: Ctx, input: StatusInput): Promise<ShopRow> {
  const current = await getStatus(ctx);
  if (!current.digitalAllowed) {
    throw new AppError('addon_unavailable', 'The digital add-on is not available to this shop');
  }
  const mode = input.abo_provision ?? (current.aboProvision as Provision);
  const months =
    input.abo_provision_monate !== undefined
      ? input.abo_provision_monate
      : input.abo_provision !== undefined && input.abo_provision !== 'monate'
        ? null
        : current.aboProvisionMonate;
  if (mode === 'monate' && (months === null || months === undefined)) {
    throw new AppError('validation_failed', 'abo_provision monate needs abo_provision_monate (at least 1)', [
      { path: '/body/abo_provision_monate', message: 'is required with abo_provision monate' },
    ]);
  }
  if (mode !== 'monate' && months !== null && months !== undefined) {
    throw new AppError('validation_failed', 'abo_provision_monate applies only to abo_provision monate', [
      { path: '/body/abo_provision_monate', message: 'is only accepted with abo_provision monate' },
    ]);
  }
  const row = await setShopDigitalSettings(
    ctx,
    {
      ...(input.aktiv !== undefined ? { active: input.aktiv } : {}),
      aboProvision: mode,
      aboProvisionMonths: months ?? null,
    },
    ctx.clock.now(),
  );
  return row as ShopRow;
}
