/** Request and response schemas of the identity routes. */
import { type Static, Type } from '@sinclair/typebox';
import { ROLES, SCOPES } from '../../platform/auth/types.js';
import { Body, Email, Nullable, Timestamp } from '../../platform/http/schemas.js';

export const Password = Type.String({ minLength: 8, maxLength: 200 });
export const Role = Type.Union(ROLES.map((r) => Type.Literal(r)));
export const ScopeSchema = Type.Union(SCOPES.map((s) => Type.Literal(s)));
const ChannelIdPattern = Type.String({ pattern: '^chan_[0-9a-z]+$' });
export const ChannelIds = Type.Array(ChannelIdPattern, {
  maxItems: 100,
  uniqueItems: true,
});

export const ShopSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  digital_allowed: Type.Boolean(),
  created_at: Timestamp,
});

export const UserSchema = Type.Object({
  id: Type.String(),
  email: Type.String(),
  name: Nullable(Type.String()),
  role: Role,
  channel_ids: Type.Array(Type.String()),
  channel_restricted: Type.Boolean({
    description: 'true: the employee works only in channel_ids (an empty list = no channel); false: every channel',
  }),
  suspended_at: Nullable(
    Type.String({
      format: 'date-time',
      description: 'When the owner suspended sign-in (POST …/suspend); null = may sign in',
    }),
  ),
  created_at: Timestamp,
});
export type UserOut = Static<typeof UserSchema>;

export const LoginBody = Body({
  email: Type.String({ minLength: 1, maxLength: 254 }),
  password: Type.String({ minLength: 1, maxLength: 200 }),
});
export const LoginResponse = Type.Object({
  token: Type.String(),
  expires_at: Timestamp,
  user: UserSchema,
  shop: ShopSchema,
});
export const MeResponse = Type.Object({ user: UserSchema, shop: ShopSchema });
export const OriginCheckQuery = Type.Object(
  {
    origin: Type.String({
      minLength: 1,
      maxLength: 2048,
      description: 'e.g. https://admin.example (scheme, host, port)',
    }),
  },
  { additionalProperties: false },
);
export const OriginCheckResponse = Type.Object({
  allowed: Type.Boolean({ description: 'true: PUBLIC_URL or one of ADMIN_ORIGINS' }),
});
export const PasswordBody = Body({
  current_password: Type.String({ minLength: 1, maxLength: 200 }),
  new_password: Password,
});

export const EmployeeCreate = Body({
  email: Email,
  password: Password,
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  role: Role,
  channel_ids: Type.Optional(
    Nullable(
      Type.Array(ChannelIdPattern, {
        maxItems: 100,
        uniqueItems: true,
        description: 'Restrict to these channels ([] = none); absent or null = every channel',
      }),
    ),
  ),
});
export const EmployeePatch = Body({
  name: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 200 }))),
  role: Type.Optional(Role),
  channel_ids: Type.Optional(
    Nullable(
      Type.Array(ChannelIdPattern, {
        maxItems: 100,
        uniqueItems: true,
        description: 'A list (even empty) restricts the employee; null lifts the restriction',
      }),
    ),
  ),
  password: Type.Optional(Password),
});

export const ApiTokenSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  prefix: Type.String(),
  scopes: Type.Array(ScopeSchema),
  last_used_at: Nullable(Timestamp),
  created_by: Nullable(Type.String()),
  created_at: Timestamp,
});
export const ApiTokenCreated = Type.Object({
  ...ApiTokenSchema.properties,
  token: Type.String({ description: 'Shown once' }),
});
export const ApiTokenCreate = Body({
  name: Type.String({ minLength: 1, maxLength: 100 }),
  scopes: Type.Array(ScopeSchema, { minItems: 1, uniqueItems: true }),
});

export const Origin = Type.String({ minLength: 1, maxLength: 300 });
export const PublishableKeySchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  key: Type.String(),
  allowed_origins: Type.Array(Type.String()),
  created_at: Timestamp,
});
export const PublishableKeyCreate = Body({
  name: Type.String({ minLength: 1, maxLength: 100 }),
  allowed_origins: Type.Array(Origin, { maxItems: 50 }),
});
export const PublishableKeyPatch = Body({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  allowed_origins: Type.Optional(Type.Array(Origin, { maxItems: 50 })),
});

export const CustomerSchema = Type.Object({
  id: Type.String(),
  email: Type.String(),
  name: Nullable(Type.String()),
  email_verified: Type.Boolean({
    description: 'Guest orders and subscriptions of this e-mail show in the account only once it is verified',
  }),
  created_at: Timestamp,
});
export const CustomerRegister = Body({
  email: Email,
  password: Password,
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
});
export const CustomerLogin = LoginBody;
export const CustomerSessionResponse = Type.Object({
  token: Type.String(),
  expires_at: Timestamp,
  customer: CustomerSchema,
});

export const VerifyEmailBody = Body({
  token: Type.String({ minLength: 1, maxLength: 200, description: 'The token of the e-mailed link' }),
  password: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description:
        "The account's password: the verifier proves the mailbox (token) and the password, so an address registered by someone else cannot be verified into their account. Without it the mailbox alone verifies and the password set at registration is discarded (sign in again after a password reset)",
    }),
  ),
});
export const ResetRequestBody = Body({ email: Type.String({ minLength: 1, maxLength: 254 }) });
export const ResetConfirmBody = Body({
  token: Type.String({ minLength: 1, maxLength: 200, description: 'The token of the e-mailed link' }),
  password: Password,
});
export const Accepted = Type.Object({ status: Type.Literal('accepted') });
export const CustomerResponse = Type.Object({ customer: CustomerSchema });
