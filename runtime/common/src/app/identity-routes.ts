// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { AccountsController } from "../accounts/accounts.controller.js";
import { AccountsService } from "../accounts/accounts.service.js";
import { AuthController } from "../accounts/auth.controller.js";
import {
  addAccountRoutes,
  addAuthRoutes,
  addInvitationRoutes,
  addSecondFactorRoutes,
} from "../accounts/auth.routes.js";
import { InvitationAcceptance } from "../accounts/invitation-acceptance.js";
import { AcceptanceController, InvitationsController } from "../accounts/invitations.controller.js";
import { InvitationsService } from "../accounts/invitations.service.js";
import { MembersController } from "../accounts/members.controller.js";
import { addMemberRoutes } from "../accounts/members.routes.js";
import { MembersService } from "../accounts/members.service.js";
import { SecondFactorController } from "../accounts/second-factor.controller.js";
import type { AuthService } from "../auth/auth.service.js";
import type { RouteTable } from "../http/route-table.js";
import type { AccountSettings } from "../accounts/accounts.service.js";
import type { Database } from "../db/database.js";

/** What the identity routes take of the app's parts (app/api-app.ts's ApiParts). */
export interface IdentityParts {
  readonly db: Database;
  /** With mail: the account flows' settings (hashapi.yaml `auth`, `mail.limits`). */
  readonly accounts?: AccountSettings;
  /** With mail: how mail leaves; the account routes need it to exist. */
  readonly mail?: unknown;
}

/**
 * Login and the session's routes, the members of tenants (with `tenancy`), and the account flows
 * when hashapi.yaml declares `mail:`: their service, which /api/users starts resets with.
 */
export function addIdentityRoutes(
  routes: RouteTable,
  parts: IdentityParts,
  auth: AuthService,
): AccountsService | undefined {
  addAuthRoutes(routes, "/api/auth", new AuthController(auth), auth);
  if (auth.secondFactor)
    addSecondFactorRoutes(
      routes,
      "/api/auth",
      new SecondFactorController(auth, auth.secondFactor),
      auth,
    );
  const accounts =
    parts.accounts && parts.mail ? new AccountsService(parts.db, parts.accounts) : undefined;
  if (accounts) addAccountRoutes(routes, "/api/auth", new AccountsController(accounts), auth);
  const invitations = accounts && invitationsOf(parts, accounts, auth);
  const memberships = auth.memberships;
  if (invitations)
    addInvitationRoutes(
      routes,
      "/api/auth",
      {
        ...(invitations.settings.inviters.length > 0
          ? { platform: new InvitationsController(invitations, () => null) }
          : {}),
        acceptance: new AcceptanceController(
          new InvitationAcceptance(parts.db, invitations.settings, memberships),
          auth,
        ),
        joins: memberships !== undefined,
      },
      auth,
    );
  if (memberships)
    addMemberRoutes(
      routes,
      "/api",
      {
        members: new MembersController(new MembersService(parts.db, memberships), memberships),
        ...(invitations
          ? { invitations: new InvitationsController(invitations, (req) => req.user!.tenant!) }
          : {}),
      },
      auth,
    );
  return accounts;
}

/** The invitations (hashapi.yaml `auth.invitations`, or `tenancy` with mail), counted as every mail. */
function invitationsOf(
  parts: IdentityParts,
  accounts: AccountsService,
  auth: AuthService,
): InvitationsService | undefined {
  const settings = parts.accounts?.invitations;
  if (!settings) return undefined;
  const countMail = (email: string, client: string) => accounts.countMail(email, client);
  return new InvitationsService(parts.db, settings, countMail, auth.memberships);
}
