// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { CurrentUser } from "../auth/auth.service.js";
import type { ListQuery } from "../http/list-query.js";
import type { RowScope } from "../data/table.js";

type Verdict = boolean | Promise<boolean>;

/** Who may do what with one resource's records: false answers 403 "This action is unauthorized.". */
export interface Policy<Row> {
  index(user: CurrentUser | undefined, query: ListQuery): Verdict;
  store(user: CurrentUser | undefined): Verdict;
  show(user: CurrentUser | undefined, record: Row): Verdict;
  update(user: CurrentUser | undefined, record: Row): Verdict;
  destroy(user: CurrentUser | undefined, record: Row): Verdict;
  /** Only resources with soft delete have it; a policy written without it allows restoring. */
  restore?(user: CurrentUser | undefined, record: Row): Verdict;
  /**
   * The records this caller may reach at all (undefined: every record). Applied inside the
   * statement that reads: lists and their totals hold only these, show, update, destroy and
   * restore answer 404 for any other (exactly as for a missing one), and records nested with
   * `?with=` obey the scope of their own resource. E.g. `{ where: { region: user.region } }`, or
   * `{ through: { doctor: { email: user.email } } }` for the records of the caller's doctor.
   */
  scope?(user: CurrentUser | undefined): RowScope | undefined;
}

/**
 * The default rules: whoever reaches an action may use it (routes already ask for a token unless the
 * action is public), and deleted records are listed (`?with_trashed=true`) only to signed-in users.
 * A resource's policy in src/custom/ extends this and overrides what it needs.
 */
export class ResourcePolicy<Row> implements Policy<Row> {
  index(user: CurrentUser | undefined, query: ListQuery): Verdict {
    return !query.withTrashed || user !== undefined;
  }

  store(_user: CurrentUser | undefined): Verdict {
    return true;
  }

  show(_user: CurrentUser | undefined, _record: Row): Verdict {
    return true;
  }

  update(_user: CurrentUser | undefined, _record: Row): Verdict {
    return true;
  }

  destroy(_user: CurrentUser | undefined, _record: Row): Verdict {
    return true;
  }

  restore(_user: CurrentUser | undefined, _record: Row): Verdict {
    return true;
  }

  /** None by default: every record is within reach. Override it to narrow (see Policy.scope). */
  scope?(user: CurrentUser | undefined): RowScope | undefined;
}
