// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { Request, Response } from "express";
import type { AuthService } from "../auth/auth.service.js";
import { Conflict, Forbidden } from "../base/errors.js";
import { passwordRule, payloadOf, stringRule } from "./payload-rules.js";
import { noStore, sendData, sendMessage } from "../http/envelope.js";
import type { SecondFactor } from "../auth/second-factor.js";

/*
 * The second factor's routes (hashapi.yaml `auth.mfa`): set up (with the password), confirm (with a
 * code of the new secret: the recovery codes are answered once), disable (password and a code),
 * and the second step of a login (its challenge and a code or a recovery code for a session).
 */

const validatePassword = payloadOf<{ password: string }>({ password: passwordRule });
const validateCode = payloadOf<{ code: string }>({ code: stringRule("code", 20) });
const validateDisable = payloadOf<{ password: string; code: string }>({
  password: passwordRule,
  code: stringRule("code", 20),
});
const validateVerify = payloadOf<{ mfa_token: string; code: string }>({
  mfa_token: stringRule("mfa token", 200),
  code: stringRule("code", 20),
});

export class SecondFactorController {
  constructor(
    private readonly auth: AuthService,
    private readonly factor: SecondFactor,
  ) {}

  setup = async (req: Request, res: Response) => {
    noStore(res);
    const { password } = validatePassword(req.body);
    const user = req.user!;
    if (!this.factor.mayEnrol(user.role)) throw new Forbidden();
    if (user.secondFactor) throw new Conflict("Two-factor authentication is already enabled.");
    sendData(res, await this.factor.setup(user, password));
  };

  confirm = async (req: Request, res: Response) => {
    noStore(res);
    const { code } = validateCode(req.body);
    const user = req.user!;
    if (user.secondFactor) throw new Conflict("Two-factor authentication is already enabled.");
    const codes = await this.factor.confirm(user, code, req.token!.sid);
    sendData(res, { recovery_codes: codes });
  };

  disable = async (req: Request, res: Response) => {
    noStore(res);
    const { password, code } = validateDisable(req.body);
    const user = req.user!;
    if (this.factor.requires(user.role))
      throw new Forbidden("Your role requires two-factor authentication.");
    if (!user.secondFactor) throw new Conflict("Two-factor authentication is not enabled.");
    await this.factor.disable(user, password, code);
    sendMessage(res, "Two-factor authentication has been disabled.");
  };

  /** The second step of a login: the challenge and a code (or a recovery code) for a session. */
  verify = async (req: Request, res: Response) => {
    noStore(res);
    const { mfa_token: challenge, code } = validateVerify(req.body);
    const user = await this.factor.verifyLogin(challenge, code);
    sendData(
      res,
      await this.auth.startSession(user, { ip: req.ip, userAgent: req.get("user-agent") }),
    );
  };
}
