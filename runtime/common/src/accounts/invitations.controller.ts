// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { Request, Response } from "express";
import type { AuthService } from "../auth/auth.service.js";
import { Forbidden } from "../base/errors.js";
import {
  emailRule,
  nameRule,
  passwordRule,
  payloadOf,
  stringRule,
  tokenRule,
} from "./payload-rules.js";
import { noStore, sendData, sendError, sendMessage } from "../http/envelope.js";
import { client } from "./accounts.controller.js";
import { storedEmail } from "../base/emails.js";
import { publicIdOrNotFound } from "../base/hash-id.js";
import type { InvitationAcceptance } from "./invitation-acceptance.js";
import type { InvitationScope, InvitationsService } from "./invitations.service.js";

const validateInvitation = payloadOf<{ email: string; role: string }>({
  email: emailRule,
  role: stringRule("role", 40),
});
const validateAcceptance = payloadOf<{ token: string; name: string; password: string }>({
  token: tokenRule,
  name: nameRule,
  password: passwordRule,
});
const validateJoin = payloadOf<{ token: string }>({ token: tokenRule });

const invalidInvitation = "This invitation is invalid, revoked or has expired.";

/**
 * The invitations of one scope: the platform's (`/api/auth/invitations`), or those of the tenant a
 * request works in (`/api/members/invitations`), as `scopeOf` reads it from the request.
 */
export class InvitationsController {
  constructor(
    private readonly invitations: InvitationsService,
    private readonly scopeOf: (req: Request) => InvitationScope,
  ) {}

  list = async (req: Request, res: Response) => {
    this.inviting(req);
    sendData(res, await this.invitations.list(this.scopeOf(req)));
  };

  create = async (req: Request, res: Response) => {
    const inviter = this.inviting(req);
    const { email, role } = validateInvitation(req.body);
    const invitation = await this.invitations.invite(
      inviter,
      { email: storedEmail(email), role },
      client(req),
      this.scopeOf(req),
    );
    sendData(res, invitation, 201);
  };

  revoke = async (req: Request, res: Response) => {
    const revoker = this.inviting(req);
    const hash = publicIdOrNotFound(req.params.hash, "INV");
    await this.invitations.revoke(revoker, hash, this.scopeOf(req));
    sendMessage(res, "Invitation revoked.");
  };

  private inviting(req: Request) {
    const user = req.user!;
    if (!this.invitations.mayInvite(user.role, this.scopeOf(req))) throw new Forbidden();
    return user;
  }
}

/** An invitation's link followed: a new account (`accept`), or a signed-in account joining (`join`). */
export class AcceptanceController {
  constructor(
    private readonly acceptance: InvitationAcceptance,
    private readonly auth: AuthService,
  ) {}

  /** Accepts an invitation: the account is made and signed in (its first session). */
  accept = async (req: Request, res: Response) => {
    noStore(res);
    const { token, name, password } = validateAcceptance(req.body);
    const user = await this.acceptance.accept(token, name.trim().normalize("NFC"), password);
    if (!user) return sendError(res, 422, invalidInvitation, { token: [invalidInvitation] });
    sendData(
      res,
      await this.auth.startSession(user, { ip: req.ip, userAgent: req.get("user-agent") }),
      201,
    );
  };

  /** With tenancy: the signed-in caller joins the tenant an invitation to their address names. */
  join = async (req: Request, res: Response) => {
    const { token } = validateJoin(req.body);
    const joined = await this.acceptance.join(req.user!.id, token);
    if (!joined) return sendError(res, 422, invalidInvitation, { token: [invalidInvitation] });
    sendData(res, joined, 201);
  };
}
