// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { Request, Response } from "express";
import type { Memberships } from "../auth/memberships.js";
import { ValidationFailed } from "../base/errors.js";
import { isRecord } from "../base/records.js";
import { publicIdOrNotFound } from "../base/hash-id.js";
import { sendData, sendMessage } from "../http/envelope.js";
import type { MembersService } from "./members.service.js";

/** The members' routes of the tenant a request works in, and a user's own tenants (members.routes.ts). */
export class MembersController {
  constructor(
    private readonly members: MembersService,
    private readonly memberships: Memberships,
  ) {}

  index = async (req: Request, res: Response): Promise<void> => {
    const members = await this.members.list(req.user!.tenant!);
    sendData(res, members.map(output));
  };

  store = async (req: Request, res: Response): Promise<void> => {
    const body = isRecord(req.body) ? req.body : {};
    const errors = {
      ...(typeof body.user === "string" ? {} : { user: ["The user field is required."] }),
      ...(typeof body.role === "string" ? {} : { role: ["The role field is required."] }),
    };
    if (Object.keys(errors).length > 0) throw new ValidationFailed(errors);
    const member = await this.members.add(req.user!.tenant!, String(body.user), String(body.role));
    sendData(res, output(member), 201);
  };

  update = async (req: Request, res: Response): Promise<void> => {
    const role = isRecord(req.body) ? req.body.role : undefined;
    if (typeof role !== "string")
      throw new ValidationFailed({ role: ["The role field is required."] });
    const user = req.user!;
    const userHash = publicIdOrNotFound(req.params.user, "USR");
    const member = await this.members.setRole(user, user.tenant!, userHash, role);
    sendData(res, output(member));
  };

  destroy = async (req: Request, res: Response): Promise<void> => {
    const user = req.user!;
    await this.members.remove(user, user.tenant!, publicIdOrNotFound(req.params.user, "USR"));
    sendMessage(res, "Member removed.");
  };

  /** The tenants the caller works in, with their role in each: what a tenant switcher lists. */
  tenants = async (req: Request, res: Response): Promise<void> => {
    sendData(res, await this.memberships.tenantsOf(req.user!.id));
  };
}

function output(member: Awaited<ReturnType<MembersService["list"]>>[number]) {
  return { user: member.user, role: member.role, since: member.since.toISOString() };
}
