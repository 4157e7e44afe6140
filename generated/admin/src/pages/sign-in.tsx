// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { useState } from "preact/hooks";
import type { AdminApi } from "../api.js";
import { ErrorSummary, TextInput } from "../parts/inputs.js";

type Errors = Readonly<Partial<Record<string, readonly string[]>>>;

/**
 * Signing in: e-mail and password, then (a user with a second factor) a code from their app or a
 * recovery code. The API's own messages are shown: a wrong password, a throttled login, a bad code.
 */
export function SignIn(props: {
  api: AdminApi;
  title: string;
  notice?: string | undefined;
  onSignedIn: () => void;
}) {
  const [challenge, setChallenge] = useState<string | undefined>();
  const [errors, setErrors] = useState<Errors>({});
  const [message, setMessage] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  function failed(error: { message: string; errors?: Errors }) {
    setMessage(error.message);
    setErrors(error.errors ?? {});
  }

  async function submit(event: Event) {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    setBusy(true);
    try {
      if (challenge === undefined) {
        const login = await props.api.auth.login({
          email: String(form.get("email")),
          password: String(form.get("password")),
        });
        if (login.error !== undefined) return failed(login.error);
        if ("mfa_required" in login.data) {
          setErrors({});
          setMessage(undefined);
          return setChallenge(login.data.mfa_token);
        }
      } else {
        const verified = await props.api.mfa.verifyMfa(challenge, String(form.get("code")));
        if (verified.error !== undefined) return failed(verified.error);
      }
      props.api.keep();
      props.onSignedIn();
    } finally {
      setBusy(false);
    }
  }

  return (
    <main id="main" class="sign-in">
      <h1 tabIndex={-1}>{props.title} admin</h1>
      {props.notice && <p role="status">{props.notice}</p>}
      <form onSubmit={submit} noValidate aria-describedby={message ? "sign-in-error" : undefined}>
        <h2>{challenge === undefined ? "Sign in" : "Second factor"}</h2>
        {message && <ErrorSummary id="sign-in-error" message={message} errors={{}} />}
        <SignInFields challenge={challenge} errors={errors} />
        <button type="submit" class="primary" disabled={busy}>
          {challenge === undefined ? "Sign in" : "Verify"}
        </button>
      </form>
    </main>
  );
}

/** The first step's e-mail and password, or the second step's code. */
function SignInFields(props: { challenge: string | undefined; errors: Errors }) {
  const { errors } = props;
  if (props.challenge !== undefined)
    return (
      <TextInput
        name="code"
        label="Code from your authenticator app, or a recovery code"
        autocomplete="one-time-code"
        required
        errors={errors.code ?? errors.mfa_token}
      />
    );
  return (
    <>
      <TextInput
        name="email"
        label="E-mail"
        type="email"
        autocomplete="username"
        required
        errors={errors.email}
      />
      <TextInput
        name="password"
        label="Password"
        type="password"
        autocomplete="current-password"
        required
        errors={errors.password}
      />
    </>
  );
}
