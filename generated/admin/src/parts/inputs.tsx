// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { ComponentChildren } from "preact";

/*
 * Labelled inputs whose errors are tied to them (aria-describedby, aria-invalid): a screen reader
 * reads the API's message with the field, and the summary above the form announces that it failed.
 */

export const inputId = (name: string) => `field-${name.replace(/[^A-Za-z0-9_-]/g, "_")}`;
const errorsId = (name: string) => `${inputId(name)}-errors`;

/** The field's messages, or nothing. */
export function FieldErrors(props: { name: string; errors?: readonly string[] | undefined }) {
  if (!props.errors?.length) return null;
  return (
    <ul class="field-errors" id={errorsId(props.name)}>
      {props.errors.map((message) => (
        <li key={message}>{message}</li>
      ))}
    </ul>
  );
}

/** What each input of a field carries for its errors and hint. */
export function described(name: string, errors: readonly string[] | undefined, hint?: string) {
  const ids = [hint ? `${inputId(name)}-hint` : "", errors?.length ? errorsId(name) : ""].filter(
    (id) => id !== "",
  );
  return {
    id: inputId(name),
    name,
    "aria-invalid": errors?.length ? ("true" as const) : undefined,
    "aria-describedby": ids.length > 0 ? ids.join(" ") : undefined,
  };
}

/** A label, the input, a hint and the errors, in that order. */
export function Labelled(props: {
  name: string;
  label: string;
  required?: boolean | undefined;
  hint?: string | undefined;
  errors?: readonly string[] | undefined;
  children: ComponentChildren;
}) {
  return (
    <div class={`field${props.errors?.length ? " invalid" : ""}`}>
      <label for={inputId(props.name)}>
        {props.label}
        {props.required && (
          <span class="required" aria-hidden="true">
            {" "}
            *
          </span>
        )}
      </label>
      {props.children}
      {props.hint && (
        <p class="hint" id={`${inputId(props.name)}-hint`}>
          {props.hint}
        </p>
      )}
      <FieldErrors name={props.name} errors={props.errors} />
    </div>
  );
}

export function TextInput(props: {
  name: string;
  label: string;
  type?: string;
  autocomplete?: string;
  required?: boolean;
  errors?: readonly string[] | undefined;
}) {
  return (
    <Labelled name={props.name} label={props.label} required={props.required} errors={props.errors}>
      <input
        {...described(props.name, props.errors)}
        type={(props.type ?? "text") as "text"}
        autocomplete={props.autocomplete}
        required={props.required}
        aria-required={props.required ? "true" : undefined}
      />
    </Labelled>
  );
}

/** The failure of a submit, announced: its message, and each field's messages as links to it. */
export function ErrorSummary(props: {
  id?: string;
  message: string;
  errors: Readonly<Partial<Record<string, readonly string[]>>>;
  labels?: Readonly<Record<string, string>>;
}) {
  const keyed = Object.entries(props.errors);
  return (
    <div class="error-summary" role="alert" id={props.id}>
      <p>{props.message}</p>
      {keyed.length > 0 && (
        <ul>
          {keyed.map(([key, messages]) => (
            <li key={key}>
              <a
                href={`#${inputId(key)}`}
                onClick={(event) => {
                  event.preventDefault();
                  document.getElementById(inputId(key))?.focus();
                }}
              >
                {props.labels?.[key] ?? key}
              </a>
              : {messages?.[0]}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
