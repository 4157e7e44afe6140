// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { Request, Response } from "express";
import { noStore, sendError, sendMessage } from "../http/envelope.js";
import { storedEmail } from "../base/emails.js";
import { emailRule, nameRule, passwordRule, payloadOf, tokenRule } from "./payload-rules.js";
import { InvalidToken, type AccountsService } from "./accounts.service.js";

/*
 * The routes of the account flows (docs/api-contract.md in hashapi, "Accounts"). Every answer is
 * `no-store`: a body may hold nothing secret, but a token in a request must not be cached either.
 */

const validateRegistration = payloadOf<{ name: string; email: string; password: string }>({
  name: nameRule,
  email: emailRule,
  password: passwordRule,
});
const validateEmail = payloadOf<{ email: string }>({ email: emailRule });
const validateToken = payloadOf<{ token: string }>({ token: tokenRule });
const validateEmailChange = payloadOf<{ email: string; password: string }>({
  email: emailRule,
  password: passwordRule,
});
const validateReset = payloadOf<{ token: string; password: string }>({
  token: tokenRule,
  password: passwordRule,
});

const invalidLinks = {
  email: "This link to confirm an email address is invalid or has expired.",
  signup: "This verification link is invalid or has expired.",
  reset: "This password reset token is invalid.",
};

export class AccountsController {
  constructor(private readonly accounts: AccountsService) {}

  /** hashapi.yaml's `auth.signup` is declared: people make their own accounts. */
  get signsUp(): boolean {
    return this.accounts.settings.signup !== undefined;
  }

  /** A sign-up's address is confirmed before its account exists (`auth.signup.verify`). */
  get confirmsSignups(): boolean {
    return this.accounts.settings.signup?.verify === true;
  }

  register = async (req: Request, res: Response) => {
    noStore(res);
    const { name, email, password } = validateRegistration(req.body);
    const registration = {
      name: name.trim().normalize("NFC"),
      email: storedEmail(email),
      password,
    };
    await this.accounts.register(registration, client(req));
    sendMessage(res, "Check your email to finish signing up.", 202);
  };

  verify = async (req: Request, res: Response) => {
    noStore(res);
    const { token } = validateToken(req.body);
    if (await this.followed(res, "signup", () => this.accounts.verify(token)))
      sendMessage(res, "Your email address has been verified: you can sign in.");
  };

  resend = async (req: Request, res: Response) => {
    noStore(res);
    const { email } = validateEmail(req.body);
    await this.accounts.resend(storedEmail(email), client(req));
    sendMessage(res, "If that address has a sign-up waiting, a new link has been sent to it.", 202);
  };

  forgot = async (req: Request, res: Response) => {
    noStore(res);
    const { email } = validateEmail(req.body);
    await this.accounts.forgot(storedEmail(email), client(req));
    sendMessage(
      res,
      "If that address has an account, a link to reset its password has been sent to it.",
      202,
    );
  };

  reset = async (req: Request, res: Response) => {
    noStore(res);
    const { token, password } = validateReset(req.body);
    if (await this.followed(res, "reset", () => this.accounts.reset(token, password)))
      sendMessage(res, "Your password has been reset: sign in with it.");
  };

  /** Asks to move the caller's account to another address (confirmed there). */
  changeEmail = async (req: Request, res: Response) => {
    noStore(res);
    const { email, password } = validateEmailChange(req.body);
    await this.accounts.changeEmail(req.user!, storedEmail(email), password, client(req));
    sendMessage(res, "Check the new address: the change is made when its link is followed.", 202);
  };

  confirmEmail = async (req: Request, res: Response) => {
    noStore(res);
    const { token } = validateToken(req.body);
    if (await this.followed(res, "email", () => this.accounts.confirmEmail(token)))
      sendMessage(res, "Your email address has been changed: sign in with it.");
  };

  /** Runs a link's work; a spent, expired or unknown token answers 422 on `token`. */
  private async followed(
    res: Response,
    kind: keyof typeof invalidLinks,
    work: () => Promise<void>,
  ): Promise<boolean> {
    try {
      await work();
      return true;
    } catch (error) {
      if (!(error instanceof InvalidToken)) throw error;
      sendError(res, 422, invalidLinks[kind], { token: [invalidLinks[kind]] });
      return false;
    }
  }
}

/** The client's address (as TRUST_PROXY reports it): what the mail limits count per client. */
export function client(req: Request): string {
  return req.ip ?? "unknown";
}
