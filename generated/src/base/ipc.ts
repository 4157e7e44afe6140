// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

/*
 * Messages between a supervisor (or the dev runner) and its child processes. A child can die at any
 * moment (kill -9, the OOM killer), and a message sent in the instant before its parent notices
 * fails with EPIPE, or with ERR_IPC_CHANNEL_CLOSED just after. Node reports a failed send without a
 * callback as an 'error' event, which ends the sending process when nothing listens: one worker's
 * death took the supervisor, and with it every other worker, down mid-scrape. The peer's death is
 * handled where it is noticed (its 'exit'), so a send that could not be delivered is dropped here.
 */

/** A child process, a cluster worker, or `process` in a child: whatever sends over an IPC channel. */
export interface MessageChannel {
  send?(message: unknown, callback: (error: Error | null) => void): boolean;
}

/** Sends `message` if the channel still carries it; a peer that is gone does not end this process. */
export function sendIfConnected(channel: MessageChannel, message: unknown): void {
  channel.send?.(message, () => undefined);
}
