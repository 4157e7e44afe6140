// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { Request, Response } from "express";
import type { AuthService } from "../auth/auth.service.js";
import { maxPasswordLength } from "../auth/password-policy.js";
import { Forbidden } from "../base/errors.js";
import { compileValidator } from "../base/validation.js";
import { sendData, sendError, sendMessage } from "../http/envelope.js";
import { storedEmail } from "./accounts.controller.js";
import type { InvitationsService } from "./invitations.service.js";

const string = (field: string, max: number) => ({
  required: `The ${field} field is required.`,
  null: `The ${field} field is required.`,
  type: `The ${field} field must be a string.`,
  minLength: `The ${field} field is required.`,
  maxLength: `The ${field} field must not be greater than ${max} characters.`,
});

const validateInvitation = compileValidator<{ email: string; role: string }>(
  {
    type: "object",
    properties: {
      email: { type: "string", format: "email", maxLength: 255 },
      role: { type: "string", minLength: 1, maxLength: 40 },
    },
    required: ["email", "role"],
    additionalProperties: false,
  },
  {
    email: { ...string("email", 255), format: "The email field must be a valid email address." },
    role: string("role", 40),
  },
);

const validateAcceptance = compileValidator<{ token: string; name: string; password: string }>(
  {
    type: "object",
    properties: {
      token: { type: "string", minLength: 1, maxLength: 200 },
      name: { type: "string", minLength: 1, maxLength: 255, pattern: "\\S" },
      password: { type: "string", minLength: 1, maxLength: maxPasswordLength },
    },
    required: ["token", "name", "password"],
    additionalProperties: false,
  },
  {
    token: string("token", 200),
    name: { ...string("name", 255), pattern: "The name field is required." },
    password: string("password", maxPasswordLength),
  },
);

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
      req.ip ?? "unknown",
    );
    sendData(res, invitation, 201);
  };

  revoke = async (req: Request, res: Response) => {
    this.inviting(req);
    await this.invitations.revoke(String(req.params.hash));
    sendMessage(res, "Invitation revoked.");
  };

  /** Accepts an invitation: the account is made and signed in (its first session). */
  accept = async (req: Request, res: Response) => {
    res.setHeader("Cache-Control", "no-store");
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
