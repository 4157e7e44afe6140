// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { useState } from "preact/hooks";
import type { AdminApi } from "../api.js";
import { ErrorSummary, TextInput } from "../parts/inputs.js";

type Failure = { message: string; errors: Readonly<Partial<Record<string, readonly string[]>>> };

/**
 * A role that must have a second factor (`auth.mfa.required`) sets one up before anything else:
 * the password again, then a code from the app the secret was entered in; the recovery codes are
 * shown once.
 */
export function SecondFactorSetup(props: {
  api: AdminApi;
  onDone: () => void;
  onSignOut: () => void;
}) {
  const [codes, setCodes] = useState<readonly string[] | undefined>();
  return (
    <main id="main" class="sign-in">
      <h1 tabIndex={-1}>Set up a second factor</h1>
      <p>Your role signs in with a code from an authenticator app as well as a password.</p>
      {codes ? (
        <RecoveryCodes codes={codes} onDone={props.onDone} />
      ) : (
        <SetupForm api={props.api} onCodes={setCodes} />
      )}
      <button type="button" class="link" onClick={props.onSignOut}>
        Sign out
      </button>
    </main>
  );
}

/** The password, then (the secret shown) a code of it: the API answers the recovery codes. */
function SetupForm(props: { api: AdminApi; onCodes: (codes: readonly string[]) => void }) {
  const [secret, setSecret] = useState<string | undefined>();
  const [failure, setFailure] = useState<Failure | undefined>();

  async function submit(event: Event) {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const { mfa } = props.api;
    const result =
      secret === undefined
        ? await mfa.setupMfa(String(form.get("password")))
        : await mfa.confirmMfa(String(form.get("code")));
    if (result.error !== undefined)
      return setFailure({
        message: result.error.message,
        errors: "errors" in result.error ? result.error.errors : {},
      });
    setFailure(undefined);
    if ("secret" in result.data) setSecret(result.data.secret);
    else props.onCodes(result.data.recovery_codes);
  }

  return (
    <form onSubmit={submit} noValidate>
      {failure && <ErrorSummary message={failure.message} errors={{}} />}
      {secret === undefined ? (
        <TextInput
          name="password"
          label="Password"
          type="password"
          autocomplete="current-password"
          required
          errors={failure?.errors.password}
        />
      ) : (
        <>
          <p>
            Enter this secret in your authenticator app: <code class="secret">{secret}</code>
          </p>
          <TextInput
            name="code"
            label="Code from the app"
            autocomplete="one-time-code"
            required
            errors={failure?.errors.code}
          />
        </>
      )}
      <button type="submit" class="primary">
        {secret === undefined ? "Continue" : "Confirm"}
      </button>
    </form>
  );
}

function RecoveryCodes(props: { codes: readonly string[]; onDone: () => void }) {
  return (
    <>
      <h2>Recovery codes</h2>
      <p>
        Keep these somewhere safe: each signs you in once without the app. They are not shown again.
      </p>
      <ul class="codes">
        {props.codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <button type="button" class="primary" onClick={props.onDone}>
        Continue
      </button>
    </>
  );
}
