/**
 * A `fetch` that holds a request's slots until its body has been read: one
 * of a global cap on requests in flight (shared by every host of a harvest
 * of many sources), and optionally one of a host's lock files, so that the
 * per-host limit holds across the processes of one machine.
 *
 * @module
 */

import { tryHoldLock } from "../../fs/file_lock.ts";

/** Counts slots; waiters are served in arrival order. */
export class Slots {
  #free: number;
  readonly #waiting: (() => void)[] = [];

  /** @param size The most slots held at once. */
  constructor(size: number) {
    this.#free = Math.max(1, Math.floor(size));
  }

  /** Waits for a slot; the returned function gives it back (once). */
  async take(signal?: AbortSignal): Promise<() => void> {
    if (this.#free > 0 && this.#waiting.length === 0) this.#free--;
    else {
      await new Promise<void>((resolve, reject) => {
        const wake = () => {
          signal?.removeEventListener("abort", abort);
          resolve();
        };
        const abort = () => {
          const at = this.#waiting.indexOf(wake);
          if (at >= 0) this.#waiting.splice(at, 1);
          reject(signal!.reason);
        };
        if (signal?.aborted) return reject(signal.reason);
        signal?.addEventListener("abort", abort, { once: true });
        this.#waiting.push(wake);
      });
    }
    let given = false;
    return () => {
      if (given) return;
      given = true;
      const next = this.#waiting.shift();
      if (next) next(); // the slot passes straight on
      else this.#free++;
    };
  }
}

/** The lock files of one host: `perHost` of them, one per request in flight. */
function lockName(origin: string, slot: number): string {
  return `${origin.replace(/^[a-z]+:\/\//, "").replace(/[^A-Za-z0-9.-]/g, "_")}.${slot}.lock`;
}

/**
 * Takes one of a host's `perHost` lock files in `folder`, waiting (polling
 * each few milliseconds) while other processes hold them all. The
 * operating system drops a lock with its process, so a killed harvest
 * leaves no host locked.
 */
async function holdHostLock(
  folder: string,
  origin: string,
  perHost: number,
  signal?: AbortSignal,
): Promise<() => void> {
  await Deno.mkdir(folder, { recursive: true });
  for (let round = 0;; round++) {
    for (let slot = 0; slot < perHost; slot++) {
      const file = await Deno.open(`${folder}/${lockName(origin, slot)}`, {
        create: true,
        write: true,
      });
      const held = await tryHoldLock(file);
      if (held) return () => held.release();
    }
    signal?.throwIfAborted();
    // Another process holds the host: wait a little (growing to 50 ms) and look again.
    await new Promise((resolve) => setTimeout(resolve, Math.min(50, 2 + round * 2)));
  }
}

/** Options of {@linkcode gatedFetch}. */
export interface GateOptions {
  /** The fetch to call; default the global one. */
  fetch?: typeof fetch;
  /** The global cap. */
  slots: Slots;
  /** A folder of host lock files shared with other processes, or none. */
  lockFolder?: string;
  /** Lock files per host: the per-host cap. */
  perHost: number;
}

/**
 * A fetch that waits for a global slot (and a host lock) before each
 * request and frees them when the body is read to its end, cancelled, or
 * fails: a request's server-side work lasts until its body is sent.
 */
export function gatedFetch(options: GateOptions): typeof fetch {
  const inner = options.fetch ?? globalThis.fetch.bind(globalThis);
  return async (input, init) => {
    const signal = init?.signal ?? undefined;
    const origin = new URL(input instanceof Request ? input.url : String(input)).origin;
    const frees: (() => void)[] = [];
    const free = () => {
      for (const f of frees.splice(0)) f();
    };
    try {
      frees.push(await options.slots.take(signal));
      if (options.lockFolder) {
        frees.push(await holdHostLock(options.lockFolder, origin, options.perHost, signal));
      }
      const answer = await inner(input, init);
      if (!answer.body) {
        free();
        return answer;
      }
      const reader = answer.body.getReader();
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          try {
            const { done, value } = await reader.read();
            if (done) {
              free();
              controller.close();
            } else controller.enqueue(value);
          } catch (error) {
            free();
            controller.error(error);
          }
        },
        cancel(reason) {
          free();
          return reader.cancel(reason);
        },
      });
      const gated = new Response(body, {
        status: answer.status,
        statusText: answer.statusText,
        headers: answer.headers,
      });
      // The answer's own address, which says where a redirect led.
      Object.defineProperty(gated, "url", { value: answer.url });
      Object.defineProperty(gated, "redirected", { value: answer.redirected });
      return gated;
    } catch (error) {
      free();
      throw error;
    }
  };
}
