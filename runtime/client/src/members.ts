// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { Accepted, Invitation } from "./accounts.js";
import type { ApiFailure, Result } from "./result.js";
import type { Transport } from "./transport.js";

/** A member of the tenant the client works in (`setTenant`), with their role there. */
export interface Member<TenantRole extends string = string> {
  readonly user: { readonly hash: string; readonly name: string; readonly email: string };
  readonly role: TenantRole;
  readonly since: string;
}

/** A tenant the signed-in user works in, with their role there. */
export interface TenantMembership<TenantRole extends string = string> {
  readonly hash: string;
  readonly role: TenantRole;
}

/**
 * `/api/members` of the tenant the client works in, and `/api/auth/tenants` (hashapi.yaml
 * `tenancy`): `TenantRole` is its roles.
 */
export function membersClient<TenantRole extends string>(transport: Transport) {
  const member = (user: string) => `/api/members/${encodeURIComponent(user)}`;
  return {
    list: (): Promise<Result<Member<TenantRole>[]>> =>
      transport.call<Member<TenantRole>[]>("GET", "/api/members", "data"),
    /** Adds an existing user (a bypass role's route: the service's own staff). */
    add: (member: {
      readonly user: string;
      readonly role: TenantRole;
    }): Promise<Result<Member<TenantRole>, ApiFailure<"user" | "role">>> =>
      transport.call<Member<TenantRole>>("POST", "/api/members", "data", member),
    setRole: (
      user: string,
      role: TenantRole,
    ): Promise<Result<Member<TenantRole>, ApiFailure<"role">>> =>
      transport.call<Member<TenantRole>>("PATCH", member(user), "data", { role }),
    /** Removes a member (the signed-in user's own id: they leave). */
    remove: (user: string): Promise<Result<Accepted>> =>
      transport.call<Accepted>("DELETE", member(user), "message"),
    /** The tenants the signed-in user works in: what a tenant switcher lists. */
    tenants: (): Promise<Result<TenantMembership<TenantRole>[]>> =>
      transport.call<TenantMembership<TenantRole>[]>("GET", "/api/auth/tenants", "data"),
  };
}

/** `/api/members/invitations` (hashapi.yaml `tenancy` with `mail`): invitations into the tenant. */
export function memberInvitationsClient<TenantRole extends string>(transport: Transport) {
  return {
    invitations: (): Promise<Result<Invitation[]>> =>
      transport.call<Invitation[]>("GET", "/api/members/invitations", "data"),
    invite: (invitation: {
      readonly email: string;
      readonly role: TenantRole;
    }): Promise<Result<Invitation, ApiFailure<"email" | "role">>> =>
      transport.call<Invitation>("POST", "/api/members/invitations", "data", invitation),
    revokeInvitation: (hash: string): Promise<Result<Accepted>> =>
      transport.call<Accepted>(
        "DELETE",
        `/api/members/invitations/${encodeURIComponent(hash)}`,
        "message",
      ),
  };
}

/** `POST /api/auth/invitations/join`: the signed-in user joins the tenant an invitation names. */
export function joinClient<TenantRole extends string>(transport: Transport) {
  return {
    joinTenant: (
      token: string,
    ): Promise<Result<TenantMembership<TenantRole>, ApiFailure<"token">>> =>
      transport.call<TenantMembership<TenantRole>>("POST", "/api/auth/invitations/join", "data", {
        token,
      }),
  };
}

export type MemberRoutes<TenantRole extends string> = ReturnType<typeof membersClient<TenantRole>>;
export type MemberInvitationRoutes<TenantRole extends string> = ReturnType<
  typeof memberInvitationsClient<TenantRole>
>;
export type JoinRoutes<TenantRole extends string> = ReturnType<typeof joinClient<TenantRole>>;
