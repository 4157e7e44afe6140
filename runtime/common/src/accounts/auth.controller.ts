// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { Request, Response } from "express";
import { noStore, sendData, sendError, sendMessage } from "../http/envelope.js";
import { NotFound, Unauthenticated } from "../base/errors.js";
import { bearerToken } from "../base/tokens.js";
import { publicIdOrNotFound } from "../base/hash-id.js";
import { emailRule, passwordRule, payloadOf } from "./payload-rules.js";
import { InvalidCredentials, type AuthService } from "../auth/auth.service.js";

interface LoginPayload {
  email: string;
  password: string;
}

const validateLogin = payloadOf<LoginPayload>({ email: emailRule, password: passwordRule });

export class AuthController {
  constructor(private readonly auth: AuthService) {}

  login = async (req: Request, res: Response) => {
    noStore(res);
    const { email, password } = validateLogin(req.body);
    try {
      const client = { ip: req.ip ?? "unknown", userAgent: req.get("user-agent") };
      sendData(res, await this.auth.login(email, password, client));
    } catch (error) {
      if (!(error instanceof InvalidCredentials)) throw error;
      sendError(res, 401, "Invalid credentials.");
    }
  };

  me = (req: Request, res: Response) => {
    noStore(res);
    // The one bare response of the API (docs/api-contract.md §1 in hashapi).
    res.status(200).json(this.auth.publicUser(req.user!));
  };

  refresh = async (req: Request, res: Response) => {
    noStore(res);
    const token = bearerToken(req.get("authorization"));
    if (!token) throw new Unauthenticated();
    sendData(res, await this.auth.refresh(token));
  };

  logout = async (req: Request, res: Response) => {
    noStore(res);
    await this.auth.logout(req.user!, req.token!);
    sendMessage(res, "Successfully logged out.");
  };

  /** The caller's sessions still going, newest first (theirs only). */
  sessions = async (req: Request, res: Response) => {
    noStore(res);
    sendData(res, await this.auth.sessions.list(req.user!.id, req.token!.sid));
  };

  /** Ends one of the caller's sessions: its tokens answer 401 from the next request on. */
  endSession = async (req: Request, res: Response) => {
    noStore(res);
    const hash = publicIdOrNotFound(req.params.hash, "SES");
    if (!(await this.auth.sessions.end(req.user!.id, hash))) throw new NotFound();
    sendMessage(res, "Session ended.");
  };
}
