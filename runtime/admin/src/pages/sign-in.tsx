// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { useState } from "preact/hooks";
import type { AdminApi } from "../api.js";
import { ErrorSummary, TextInput } from "../parts/inputs.js";

type Errors = Readonly<Partial<Record<string, readonly string[]>>>;

interface SignInProps {
  api: AdminApi;
  title: string;
  /** The project mails password resets (`mail:`): offer one. */
  reset: boolean;
  notice?: string | undefined;
  onSignedIn: () => void;
}

/**
 * Signing in: e-mail and password, then (a user with a second factor) a code from their app or a
 * recovery code; or, with mail, asking for a reset link. The API's own messages are shown: a wrong
 * password, a throttled login, a bad code.
 */
export function SignIn(props: SignInProps) {
  const [forgot, setForgot] = useState(false);
  return (
    <main id="main" class="sign-in">
      <h1 tabIndex={-1}>{props.title} admin</h1>
      {props.notice && <p role="status">{props.notice}</p>}
      {forgot ? <ForgotPassword api={props.api} /> : <Credentials {...props} />}
      {props.reset && (
        <button type="button" class="link" onClick={() => setForgot(!forgot)}>
          {forgot ? "Back to signing in" : "Forgot your password?"}
        </button>
      )}
    </main>
  );
}

function Credentials(props: SignInProps) {
  const [challenge, setChallenge] = useState<string | undefined>();
  const [failure, setFailure] = useState<{ message: string; errors: Errors } | undefined>();
  const [busy, setBusy] = useState(false);
  const failed = (error: { message: string; errors?: Errors }) =>
    setFailure({ message: error.message, errors: error.errors ?? {} });

  async function submit(event: Event) {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const { auth, mfa } = props.api;
    setBusy(true);
    try {
      if (challenge === undefined) {
        const login = await auth.login({
          email: String(form.get("email")),
          password: String(form.get("password")),
        });
        if (login.error !== undefined) return failed(login.error);
        if ("mfa_required" in login.data)
          return (setFailure(undefined), setChallenge(login.data.mfa_token));
      } else {
        const verified = await mfa.verifyMfa(challenge, String(form.get("code")));
        if (verified.error !== undefined) return failed(verified.error);
      }
      props.api.keep();
      props.onSignedIn();
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate aria-describedby={failure ? "sign-in-error" : undefined}>
      <h2>{challenge === undefined ? "Sign in" : "Second factor"}</h2>
      {failure && <ErrorSummary id="sign-in-error" message={failure.message} errors={{}} />}
      <SignInFields challenge={challenge} errors={failure?.errors ?? {}} />
      <button type="submit" class="primary" disabled={busy}>
        {challenge === undefined ? "Sign in" : "Verify"}
      </button>
    </form>
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

/** Asks for a reset link by mail; the API answers the same whether the address has an account. */
function ForgotPassword(props: { api: AdminApi }) {
  const [answer, setAnswer] = useState<
    { message: string; errors: Errors; failed: boolean } | undefined
  >();
  async function submit(event: Event) {
    event.preventDefault();
    const email = String(new FormData(event.currentTarget as HTMLFormElement).get("email"));
    const result = await props.api.passwords.forgotPassword(email);
    if (result.error === undefined)
      return setAnswer({ message: result.data.message, errors: {}, failed: false });
    setAnswer({
      message: result.error.message,
      errors: "errors" in result.error ? result.error.errors : {},
      failed: true,
    });
  }
  return (
    <form onSubmit={submit} noValidate>
      <h2>Reset your password</h2>
      {answer?.failed && <ErrorSummary message={answer.message} errors={{}} />}
      {answer && !answer.failed && <p role="status">{answer.message}</p>}
      <TextInput
        name="email"
        label="E-mail"
        type="email"
        autocomplete="username"
        required
        errors={answer?.errors.email}
      />
      <button type="submit" class="primary">
        Send me a link
      </button>
    </form>
  );
}
