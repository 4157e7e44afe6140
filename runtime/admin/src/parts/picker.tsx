// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { useEffect, useRef, useState } from "preact/hooks";
import type { CursorMeta, ListParams, Page } from "../../../client/src/core.js";
import type { AdminApi, AnyRecord } from "../api.js";
import type { AdminResource } from "../manifest.js";
import { idOf } from "./cells.js";
import { described, inputId } from "./inputs.js";
import { titleOf } from "../values.js";

/** How a picker asks the server for what was typed: search, else its title's `contains`, else in order. */
export function pickerQuery(target: AdminResource, typed: string): ListParams {
  const text = typed.trim();
  if (text === "") return {};
  if (target.search) return { search: text };
  const title = target.titles[0];
  const field = target.fields.find((candidate) => candidate.key === title);
  if (title && field?.operators?.includes("contains"))
    return { filter: { [title]: { contains: text } } };
  return {};
}

export interface PickerProps {
  api: AdminApi;
  target: AdminResource;
  name: string;
  value: string;
  shown: string;
  required: boolean;
  nullable: boolean;
  errors?: readonly string[] | undefined;
  onChange: (hash: string, title: string) => void;
}

/** The keys of a combobox: arrows move the active option, Enter takes it, Escape closes the list. */
function pickerKey(
  event: KeyboardEvent,
  at: { active: number; count: number; open: boolean },
  act: { move: (to: number) => void; enter: (index: number) => void; close: () => void },
): void {
  const moved = movedActive(event.key, at.active, at.count);
  if (moved !== undefined) act.move(moved);
  else if (event.key === "Enter" && at.open && at.active >= 0) act.enter(at.active);
  else if (event.key === "Escape") return act.close();
  else return;
  event.preventDefault();
}

/** Where ArrowDown and ArrowUp move the active option among `count`; undefined for other keys. */
export function movedActive(key: string, active: number, count: number): number | undefined {
  if (key === "ArrowDown") return Math.min(active + 1, count - 1);
  if (key === "ArrowUp") return Math.max(active - 1, 0);
  return undefined;
}

/**
 * A belongsTo's input: a combobox that asks the related list as you type (search, by cursors: a
 * "more" option reaches every record, never the first page only). Its value is the chosen hash.
 */
export function Picker(props: PickerProps) {
  const { target } = props;
  const [typed, setTyped] = useState(props.shown);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const { options, next, status, ask } = useFound(props.api, target, typed, open);
  const listId = `${inputId(props.name)}-options`;

  const typing = (text: string, opened = true) => (setTyped(text), setOpen(opened), setActive(-1));
  const choose = (record: AnyRecord) => {
    typing(titleOf(record, target.titles), false);
    props.onChange(idOf(target, record), titleOf(record, target.titles));
  };

  const key = (event: KeyboardEvent) =>
    pickerKey(
      event,
      { active, count: options.length + (next ? 1 : 0), open },
      {
        move: (to) => (setOpen(true), setActive(to)),
        enter: (index) =>
          index < options.length ? choose(options[index]!) : next && void ask(typed, next),
        close: () => setOpen(false),
      },
    );

  return (
    <div class="picker">
      <input
        {...described(props.name, props.errors)}
        {...combobox(listId, open, active, props.required)}
        value={typed}
        onInput={(event) => typing((event.currentTarget as HTMLInputElement).value)}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={key}
      />
      {props.nullable && props.value !== "" && (
        <button type="button" class="link" onClick={() => (setTyped(""), props.onChange("", ""))}>
          Clear
        </button>
      )}
      <Options
        listId={listId}
        label={`${target.label} found`}
        open={open}
        target={target}
        options={options}
        more={next !== null}
        active={active}
        onChoose={choose}
        onMore={() => void ask(typed, next ?? "")}
      />
      <span class="visually-hidden" role="status" children={open ? status : ""} />
    </div>
  );
}

/** The ARIA 1.2 combobox's attributes: its listbox, whether it is open, the option active. */
function combobox(listId: string, open: boolean, active: number, required: boolean) {
  return {
    type: "text" as const,
    role: "combobox" as const,
    autocomplete: "off",
    "aria-autocomplete": "list" as const,
    "aria-expanded": open ? ("true" as const) : ("false" as const),
    "aria-controls": listId,
    "aria-required": required ? ("true" as const) : undefined,
    "aria-activedescendant": open && active >= 0 ? `${listId}-${active}` : undefined,
  };
}

/**
 * What the related list answers for the typed text, by cursors: a first page, then each "more"
 * appended; an answer to an older question is dropped.
 */
function useFound(api: AdminApi, target: AdminResource, typed: string, open: boolean) {
  const [options, setOptions] = useState<AnyRecord[]>([]);
  const [next, setNext] = useState<string | null>(null);
  const [status, setStatus] = useState("");
  const asked = useRef(0);
  // Asked once typing pauses (200 ms), while the list is open.
  useEffect(() => {
    if (!open) return;
    const timer = setTimeout(() => void ask(typed), 200);
    return () => clearTimeout(timer);
  }, [typed, open]);
  async function ask(text: string, cursor = "") {
    const round = ++asked.current;
    const result = await api
      .resource(target.collection)
      .list({ ...pickerQuery(target, text), cursor, perPage: 20 });
    if (round !== asked.current) return;
    if (result.error !== undefined) return setStatus(result.error.message);
    const page = result.data as Page<AnyRecord, CursorMeta>;
    const shown = cursor === "" ? page.data : [...options, ...page.data];
    setOptions(shown);
    setNext(page.meta.next_cursor);
    setStatus(
      `${shown.length} ${shown.length === 1 ? "result" : "results"}${page.meta.next_cursor ? ", more available" : ""}`,
    );
  }
  return { options, next, status, ask };
}

/** The listbox: each record found (title and public id), then "more" while there are more. */
function Options(props: {
  listId: string;
  label: string;
  open: boolean;
  target: AdminResource;
  options: readonly AnyRecord[];
  more: boolean;
  active: number;
  onChoose: (record: AnyRecord) => void;
  onMore: () => void;
}) {
  const { listId, target, options, active } = props;
  return (
    <ul id={listId} role="listbox" aria-label={props.label} hidden={!props.open}>
      {options.map((record, index) => (
        <li
          key={idOf(target, record)}
          id={`${listId}-${index}`}
          role="option"
          aria-selected={index === active ? "true" : "false"}
          onMouseDown={(event) => {
            event.preventDefault();
            props.onChoose(record);
          }}
        >
          {titleOf(record, target.titles)} <span class="hash">{idOf(target, record)}</span>
        </li>
      ))}
      {props.more && (
        <li
          id={`${listId}-${options.length}`}
          role="option"
          aria-selected={active === options.length ? "true" : "false"}
          class="more"
          onMouseDown={(event) => {
            event.preventDefault();
            props.onMore();
          }}
        >
          More results…
        </li>
      )}
    </ul>
  );
}
