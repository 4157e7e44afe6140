// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { propertyOf } from "../../base/records.js";
import type { Request, Response } from "express";
import { sendMessage } from "../../http/envelope.js";
import { Forbidden, ValidationFailed } from "../../base/errors.js";
import { ResourceController, type ControllerContext } from "../controller.js";
import { ResourcePolicy } from "../policy.js";
import type { RecordRules } from "../service.js";
import type { ManagedUser, UserPayload, UserRoles } from "./users.service.js";

/**
 * /api/users: a resource's actions, for the roles of `auth.users.manage`, where no manager reaches
 * above its own role: a user of a more privileged role cannot be edited or deleted (403), and no
 * manager gives a role above its own (422 on `role`). Roles are ranked as hashapi.yaml lists them.
 */
export class UsersController extends ResourceController<
  object,
  ManagedUser,
  UserPayload,
  UserPayload,
  ResourcePolicy<ManagedUser>
> {
  constructor(
    context: ControllerContext<
      object,
      ManagedUser,
      UserPayload,
      UserPayload,
      ResourcePolicy<ManagedUser>
    >,
    private readonly access: UserRoles,
  ) {
    super(context);
  }

  protected override beforeUpdate(req: Request, record: ManagedUser): void {
    if (this.above(record.role, req)) throw new Forbidden();
    // With mail, another user's password is theirs to choose: a manager starts a reset instead.
    if (
      this.access.startReset &&
      record.id !== req.user?.id &&
      propertyOf(req.body, "password") !== undefined
    )
      throw new ValidationFailed({
        password: [
          "The password field is prohibited: start a reset (POST …/password-reset) instead.",
        ],
      });
  }

  /** `POST /api/users/{hash}/password-reset`: mails the user a reset link (202). */
  startReset = async (req: Request, res: Response) => {
    const record = await this.service.find(String(req.params.hash));
    if (this.above(record.role, req)) throw new Forbidden();
    await this.access.startReset!(record.email, req.ip ?? "unknown");
    sendMessage(res, "A link to reset the password has been sent to the user.", 202);
  };

  protected override beforeDestroy(req: Request, record: ManagedUser): void {
    if (this.above(record.role, req)) throw new Forbidden();
  }

  /** A user promoted above the caller since it was read is refused at the write too. */
  protected override lockedRule(req: Request): RecordRules["locked"] {
    return (row) => {
      if (this.above(String(row.role), req)) throw new Forbidden();
    };
  }

  /** The payload's own checks, and a role above the caller's refused in the same 422. */
  protected override async validated<T extends object>(
    req: Request,
    validate: () => T,
    exceptId?: number,
  ): Promise<T> {
    const role = req.user?.role;
    const sent = propertyOf(req.body, "role");
    // A new user without a role gets the default one, which must not be above the caller's either.
    const given =
      typeof sent === "string"
        ? sent
        : exceptId === undefined
          ? this.access.defaultRole
          : undefined;
    const message =
      given !== undefined && this.access.roles.includes(given) && this.rank(given) < this.rank(role)
        ? "The role field must not be above your own role."
        : undefined;
    let payload: T;
    try {
      payload = await super.validated(req, validate, exceptId);
    } catch (error) {
      if (message !== undefined && error instanceof ValidationFailed)
        error.errors.role ??= [message];
      throw error;
    }
    if (message !== undefined) throw new ValidationFailed({ role: [message] });
    return payload;
  }

  /** Whether `role` is above the caller's own. */
  private above(role: string, req: Request): boolean {
    return this.rank(role) < this.rank(req.user?.role);
  }

  /** 0 for the most privileged role; a role no longer in the specs ranks below every listed one. */
  private rank(role: string | undefined): number {
    const index = role === undefined ? -1 : this.access.roles.indexOf(role);
    return index === -1 ? this.access.roles.length : index;
  }
}
