/**
 * The warning a recording gets when it starts a local server of its own: a
 * reviewer's confined re-run (`reproduce`) may open no socket, so a
 * notebook or script that calls `startSandbox()` records fine and then
 * cannot be reproduced. `openServices()` is the way that can: in replay it
 * starts no server and answers from the recording, so its own starts are
 * not warned about.
 *
 * @module
 */

/** What is said, once a process, when a recording starts a local server. */
export const RECORDING_SERVER_WARNING =
  "tidepool: warning: this recording (TIDEPOOL_CACHE_MODE=record) starts the sandbox's servers " +
  "itself (startSandbox() or a sandbox's start function), so it cannot be reproduced: " +
  "reproduce re-runs it confined, with no socket. Start the sandbox with openServices() " +
  "from @tidepool/tidepool/sandbox instead: in replay it answers from the recording without a server.";

let replayableStarts = 0;
let warned = false;

/**
 * Runs `start` (openServices' sandbox starts) without the warning: those
 * servers are replaced by the recording in replay.
 *
 * @param start Starts the servers.
 * @returns What `start` returned.
 */
export async function replayableStart<T>(start: () => Promise<T>): Promise<T> {
  replayableStarts++;
  try {
    return await start();
  } finally {
    replayableStarts--;
  }
}

/** Says {@linkcode RECORDING_SERVER_WARNING} on stderr, once, when recording and not inside {@linkcode replayableStart}. */
export function warnWhenRecording(): void {
  if (warned || replayableStarts > 0) return;
  let mode: string | undefined;
  try {
    mode = Deno.env.get("TIDEPOOL_CACHE_MODE");
  } catch {
    return; // no --allow-env: not a recording tidepool can see
  }
  if (mode !== "record" && mode !== "refresh") return;
  warned = true;
  console.warn(RECORDING_SERVER_WARNING);
}
