/**
 * One turn of the event loop, for a walk that has sent the next request
 * ahead. Deno writes a request to its socket only when the event loop runs,
 * so a page read in one run of microtasks keeps the next request unsent
 * until the read ends: client and server take turns instead of working at
 * once. A message to oneself is the cheapest turn that lets the request go
 * out (a few microseconds; `setTimeout(0)` waits about two milliseconds,
 * `setImmediate` does not let the socket be written, and a digest on the
 * thread pool made 200,000 expression hits about 10% slower than this).
 *
 * An open message port keeps a process alive, so the channel is shared,
 * held by the walks that use it, closed when the last lets go, and closed
 * by an unreferenced timer when no turn was taken for a second (a walk its
 * caller dropped without ending it never lets go).
 *
 * @module
 */

const IDLE_MS = 1000;

let channel: MessageChannel | undefined;
let idleCheck: ReturnType<typeof setInterval> | undefined;
let turnedSinceCheck = false;
let holders = 0;
const waiting: (() => void)[] = [];

function open(): MessageChannel {
  if (channel) return channel;
  channel = new MessageChannel();
  channel.port1.onmessage = () => waiting.shift()?.();
  const check = setInterval(() => {
    if (!turnedSinceCheck) shut();
    turnedSinceCheck = false;
  }, IDLE_MS);
  Deno.unrefTimer(check as unknown as number);
  idleCheck = check;
  return channel;
}

function shut(): void {
  for (const resolve of waiting.splice(0)) resolve();
  clearInterval(idleCheck);
  channel?.port1.close();
  channel?.port2.close();
  channel = undefined;
}

/** A walk's hold on the shared channel: `turn` as often as needed, `release` once. */
export interface EventLoopTurns {
  /** Resolves after the event loop has run once. */
  turn(): Promise<void>;
  /** Lets go of the channel; the last holder closes it. */
  release(): void;
}

/** Takes a hold on the shared channel (opened on the first turn). */
export function eventLoopTurns(): EventLoopTurns {
  holders++;
  let released = false;
  return {
    turn() {
      const port = open().port2;
      turnedSinceCheck = true;
      const turned = new Promise<void>((resolve) => waiting.push(resolve));
      port.postMessage(0);
      return turned;
    },
    release() {
      if (released) return;
      released = true;
      if (--holders === 0) shut();
    },
  };
}
