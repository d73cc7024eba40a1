/** Request and response schemas of the checkout webhook routes. */
import { Type } from '@sinclair/typebox';
import { Body, Nullable, PageMeta, Pagination, Timestamp } from '../../platform/http/schemas.js';
import { WEBHOOK_DELIVERY_STATUSES } from './webhooks.tables.js';

const Secret = Type.String({
  description: 'The signing secret (`whsec_` + base64), shown only here; store it now',
});

export const EndpointSchema = Type.Object({
  url: Type.String(),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const EndpointCreated = Type.Object({
  url: Type.String(),
  created_at: Timestamp,
  updated_at: Timestamp,
  secret: Type.Optional(Secret),
});

export const EndpointPut = Body({
  url: Type.String({
    minLength: 1,
    maxLength: 2048,
    description: 'https URL (http only with WEBHOOK_ALLOW_PRIVATE=1); no credentials in the URL',
  }),
});

export const SecretResponse = Type.Object({ secret: Secret });

export const DeliveryStatus = Type.Union(
  WEBHOOK_DELIVERY_STATUSES.map((s) => Type.Literal(s)),
  { description: 'pending (queued), succeeded, failed (a retry is scheduled), dead (no more retries)' },
);

export const DeliverySchema = Type.Object({
  id: Type.String(),
  event_id: Type.String(),
  event_type: Type.String(),
  url: Type.String(),
  status: DeliveryStatus,
  attempts: Type.Integer(),
  last_status_code: Nullable(Type.Integer()),
  last_error: Nullable(Type.String()),
  next_attempt_at: Nullable(Timestamp),
  delivered_at: Nullable(Timestamp),
  created_at: Timestamp,
});

export const DeliveriesQuery = Type.Object({ ...Pagination, status: Type.Optional(DeliveryStatus) });

export const DeliveriesResponse = Type.Object({ deliveries: Type.Array(DeliverySchema), ...PageMeta });

export const TestEventResponse = Type.Object({ event_id: Type.String(), delivery_id: Type.String() });
