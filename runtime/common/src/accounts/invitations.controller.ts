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
import type { InvitationsService } from "./invitations.service.js";

const validateInvitation = payloadOf<{ email: string; role: string }>({
  email: emailRule,
  role: stringRule("role", 40),
});
const validateAcceptance = payloadOf<{ token: string; name: string; password: string }>({
  token: tokenRule,
  name: nameRule,
  password: passwordRule,
});

const invalidInvitation = "This invitation is invalid, revoked or has expired.";

export class InvitationsController {
  constructor(
    private readonly invitations: InvitationsService,
    private readonly auth: AuthService,
  ) {}

  list = async (req: Request, res: Response) => {
    this.inviting(req);
    sendData(res, await this.invitations.list());
  };

  create = async (req: Request, res: Response) => {
    const inviter = this.inviting(req);
    const { email, role } = validateInvitation(req.body);
    const invitation = await this.invitations.invite(
      inviter,
      storedEmail(email),
      role,
      client(req),
    );
    sendData(res, invitation, 201);
  };

  revoke = async (req: Request, res: Response) => {
    this.inviting(req);
    await this.invitations.revoke(publicIdOrNotFound(req.params.hash, "INV"));
    sendMessage(res, "Invitation revoked.");
  };

  /** Accepts an invitation: the account is made and signed in (its first session). */
  accept = async (req: Request, res: Response) => {
    noStore(res);
    const { token, name, password } = validateAcceptance(req.body);
    const user = await this.invitations.accept(token, name.trim().normalize("NFC"), password);
    if (!user) return sendError(res, 422, invalidInvitation, { token: [invalidInvitation] });
    sendData(
      res,
      await this.auth.startSession(user, { ip: req.ip, userAgent: req.get("user-agent") }),
      201,
    );
  };

  private inviting(req: Request) {
    const user = req.user!;
    if (!this.invitations.mayInvite(user.role)) throw new Forbidden();
    return user;
  }
}
