import assert from "node:assert/strict";
import {
  AuthError,
  BotChallengeError,
  HttpClient,
  HttpError,
  NetworkError,
  NotFoundError,
  registerSecret,
  ResponseTooLargeError,
  TidepoolError,
  TimeoutError,
} from "../../lib/http/mod.ts";
import { HUGE_BYTES, SLOW_REQUESTS, startFaultServer } from "./_fault_server.ts";
import { BEYOND_HOLD_MS, within } from "../_events.ts";

const quiet = { progress: false as const, warn: () => {} };
const fastRetry = { retries: 3, baseDelayMs: 10, maxDelayMs: 50 };

/**
 * The most a wait the server told may take in these tests: the wait itself
 * (one or two seconds) plus what a loaded machine adds to two loopback
 * requests (well under a second), with an order of magnitude to spare. A
 * client that took the header for minutes, or backed off on its own clock,
 * is far above it.
 */
const TOLD_WAIT_BOUND_MS = 20_000;

async function withServer(
  fn: (server: ReturnType<typeof startFaultServer>, http: HttpClient) => Promise<void>,
  options: ConstructorParameters<typeof HttpClient>[1] = {},
) {
  const server = startFaultServer();
  try {
    await fn(server, new HttpClient(server.url, { ...quiet, retry: fastRetry, ...options }));
  } finally {
    await server.close();
  }
}

Deno.test("503 then 200: an idempotent GET is retried once and succeeds", () =>
  withServer(async (server, http) => {
    const response = await http.request({ path: "/flaky-503" });
    assert.equal(response.status, 200);
    assert.equal(response.attempts, 2);
    assert.equal(server.hits.get("/flaky-503"), 2);
  }));

Deno.test("503 on a POST that starts something is never retried", () =>
  withServer(async (server, http) => {
    await assert.rejects(
      http.request({ method: "POST", path: "/flaky-503", json: { start: true } }),
      (error: unknown) => error instanceof HttpError && error.status === 503,
    );
    assert.equal(server.hits.get("/flaky-503"), 1);
  }));

Deno.test("a read-only POST marked idempotent is retried", () =>
  withServer(async (server, http) => {
    const response = await http.request({
      method: "POST",
      path: "/flaky-503",
      json: { query: "{ _meta { block { number } } }" },
      idempotent: true,
    });
    assert.equal(response.status, 200);
    assert.equal(server.hits.get("/flaky-503"), 2);
  }));

Deno.test("retries stop at the configured count and report the last status", () =>
  withServer(async (server, http) => {
    await assert.rejects(http.request({ path: "/always-503" }), (error: unknown) => {
      assert.ok(error instanceof HttpError);
      assert.equal(error.status, 503);
      assert.match(error.message, /down for maintenance/);
      return true;
    });
    assert.equal(server.hits.get("/always-503"), 1 + fastRetry.retries);
  }));

Deno.test("429 with Retry-After in seconds is waited out", () =>
  withServer(async (server, http) => {
    const started = Date.now();
    const response = await http.request({ path: "/retry-after" });
    const elapsed = Date.now() - started;
    assert.equal(response.status, 200);
    assert.equal(server.hits.get("/retry-after"), 2);
    const [first, second] = server.times.get("/retry-after")!;
    assert.ok(second - first >= 950, `waited only ${second - first} ms`);
    assert.ok(elapsed < TOLD_WAIT_BOUND_MS, `took ${elapsed} ms`);
  }));

Deno.test("503 with Retry-After as an HTTP date is waited out", () =>
  withServer(async (server, http) => {
    await http.request({ path: "/retry-after-date" });
    const [first, second] = server.times.get("/retry-after-date")!;
    // HTTP dates have one-second resolution: the wait is between 1 and 2 s.
    assert.ok(second - first >= 900, `waited only ${second - first} ms`);
    assert.ok(second - first < TOLD_WAIT_BOUND_MS, `waited ${second - first} ms`);
  }));

Deno.test("429 whose wait is stated only in the body is waited out", () =>
  withServer(async (server, http) => {
    const response = await http.request({ path: "/rate-limit-body" });
    assert.equal(response.status, 200);
    const [first, second] = server.times.get("/rate-limit-body")!;
    assert.ok(second - first >= 950, `waited only ${second - first} ms`);
  }));

Deno.test("a wait longer than the total budget is not attempted", () =>
  withServer(async (server, http) => {
    // The server asks for an hour: a client that waited would still be waiting at the bound.
    const outcome = await within(
      http.request({ path: "/retry-after-hour" }).then(() => "answered", (error) => error),
      "still waiting",
    );
    assert.ok(outcome instanceof HttpError && outcome.status === 429, String(outcome));
    assert.equal(server.hits.get("/retry-after-hour"), 1);
  }, { retry: { ...fastRetry, maxElapsedMs: 200 } }));

Deno.test("a hang past the timeout is a TimeoutError, retried within bounds", () =>
  withServer(async (server, http) => {
    // The server never answers in time: the client's timeout is the only way out.
    const started = Date.now();
    await assert.rejects(
      http.request({ path: "/hang", timeoutMs: 150 }),
      (error: unknown) => error instanceof TimeoutError && /150 ms/.test(error.message),
    );
    const elapsed = Date.now() - started;
    assert.equal(server.hits.get("/hang"), 2);
    assert.ok(elapsed >= 300, `two attempts of 150 ms took only ${elapsed} ms`);
    // Both requests were cut by the client, not answered late.
    await server.hangEnded.reached(2);
    assert.deepEqual(server.hangEnds, ["aborted", "aborted"]);
  }, { retry: { retries: 1, baseDelayMs: 1, maxDelayMs: 1 } }));

Deno.test("a connection closed mid-body is retried for a GET", () =>
  withServer(async (server, http) => {
    const response = await http.request({ path: `${server.cutUrl}/cut-body` });
    assert.deepEqual(response.json(), { ok: true, n: 2 });
    assert.equal(server.cutHits(), 2);
  }));

Deno.test("a connection closed mid-body on a POST is a network error, not retried", () =>
  withServer(async (server, http) => {
    await assert.rejects(
      http.request({ method: "POST", path: `${server.cutUrl}/cut-body`, body: "x" }),
      (error: unknown) =>
        error instanceof NetworkError && /Cannot reach the service/.test(error.message),
    );
    assert.equal(server.cutHits(), 1);
  }));

Deno.test("403 with cf-mitigated: challenge is a BotChallengeError, not retried", () =>
  withServer(async (server, http) => {
    await assert.rejects(http.request({ path: "/challenge" }), (error: unknown) => {
      assert.ok(error instanceof BotChallengeError);
      assert.equal(error.status, 403);
      assert.match(error.message, /bot-protection/);
      assert.match(error.hint ?? "", /allowlist/);
      return true;
    });
    assert.equal(server.hits.get("/challenge"), 1);
  }));

Deno.test("an HTML challenge page is recognised as a bot challenge", () =>
  withServer(async (_server, http) => {
    await assert.rejects(
      http.request({ path: "/challenge-page" }),
      (error: unknown) => error instanceof BotChallengeError,
    );
  }));

Deno.test("a body over the size cap is refused, declared or streamed", () =>
  withServer(async (_server, http) => {
    for (const path of ["/huge", "/huge-chunked"]) {
      await assert.rejects(
        http.request({ path }),
        (error: unknown) => error instanceof ResponseTooLargeError && error.limit === 1024,
        path,
      );
    }
    const fits = await http.request({ path: "/huge", maxBytes: HUGE_BYTES });
    assert.equal(fits.bytes.length, HUGE_BYTES);
  }, { maxResponseBytes: 1024 }));

Deno.test("a JSON-string error body becomes the error's server message", () =>
  withServer(async (_server, http) => {
    await assert.rejects(
      http.request({ method: "POST", path: "/json-string-error", json: {} }),
      (error: unknown) => {
        assert.ok(error instanceof HttpError);
        assert.equal(error.status, 400);
        assert.equal(error.serverMessage, "Cannot start compute job: cpu 5 exceeds 2");
        assert.match(error.message, /Server said: Cannot start compute job: cpu 5 exceeds 2/);
        return true;
      },
    );
  }));

Deno.test("an {error} body becomes the server message; 404 is NotFoundError", () =>
  withServer(async (_server, http) => {
    await assert.rejects(
      http.request({ method: "POST", path: "/object-error", json: {} }),
      (error: unknown) =>
        error instanceof HttpError && error.serverMessage === "duplicate slug: letter-001",
    );
    await assert.rejects(
      http.request({ path: "/not-found" }),
      (error: unknown) => error instanceof NotFoundError && error.body === "DDO not found",
    );
  }));

Deno.test("no secret reaches an error: signature, bearer token, registered key", () =>
  withServer(async (_server, http) => {
    const signature = `0x${"ab".repeat(65)}`;
    const apiSecret = "pk_live_7Q2x9.superSecretValue42";
    registerSecret(apiSecret);
    await assert.rejects(
      http.request({
        path: "/echo-secret",
        query: { signature, consumerAddress: "0x" + "1".repeat(40) },
        headers: { authorization: `Bearer ${apiSecret}` },
        sensitive: true,
      }),
      (error: unknown) => {
        assert.ok(error instanceof AuthError);
        const text = [error.message, error.body, error.url, error.details, String(error.stack)]
          .join("\n");
        assert.ok(!text.includes(signature), "signature leaked");
        assert.ok(!text.includes(signature.slice(2)), "signature hex leaked");
        assert.ok(!text.includes(apiSecret), "api key leaked");
        assert.ok(!text.includes("superSecretValue42"), "api key secret leaked");
        assert.match(text, /\[redacted\]/);
        return true;
      },
    );
  }));

// Request starts are stamped where the client hands a request to fetch, not where
// the server sees it: on a loaded machine a request can take longer on its way than
// the next one, and the server would see a shorter gap than the client kept.
const starts: number[] = [];
const stampingFetch: typeof fetch = (input, init) => {
  starts.push(performance.now());
  return fetch(input, init);
};

Deno.test("pacing keeps the minimum interval between request starts", () =>
  withServer(async (server, http) => {
    starts.length = 0;
    await Promise.all(Array.from({ length: 5 }, () => http.request({ path: "/counter" })));
    assert.equal(server.times.get("/counter")!.length, 5);
    assert.equal(starts.length, 5);
    for (let i = 1; i < starts.length; i++) {
      const gap = starts[i] - starts[i - 1];
      assert.ok(gap >= 99, `gap ${gap.toFixed(1)} ms`);
    }
  }, { minIntervalMs: 100, fetch: stampingFetch }));

Deno.test("pacing caps the requests in flight", () =>
  withServer(async (server, http) => {
    await Promise.all(
      Array.from({ length: SLOW_REQUESTS }, () => http.request({ path: "/slow" })),
    );
    assert.equal(server.hits.get("/slow"), SLOW_REQUESTS);
    assert.equal(server.inFlight.max, 2);
  }, { concurrency: 2 }));

Deno.test("an aborted signal cancels a request at once", () =>
  withServer(async (server, http) => {
    const controller = new AbortController();
    const request = http.request({ path: "/hang", signal: controller.signal });
    const outcome = request.then(() => "answered", (error) => error);
    // Aborted once the server holds the request, which it answers only after the bound.
    await server.arrivals("/hang").reached(1);
    controller.abort(new Error("user cancelled"));
    assert.match(String(await outcome), /user cancelled/);
    await server.hangEnded.reached(1);
    assert.deepEqual(server.hangEnds, ["aborted"], "the request was cut, not answered late");
  }, { timeoutMs: BEYOND_HOLD_MS }));

Deno.test("query arrays repeat the parameter; JSON bodies are sent", () =>
  withServer(async (server, http) => {
    const url = http.url("/ok", { "filter[type]": ["map", "letter"], skip: undefined, n: 3 });
    assert.equal(url.search, "?filter%5Btype%5D=map&filter%5Btype%5D=letter&n=3");
    const response = await http.request({ method: "POST", path: "/post", json: { a: "日本" } });
    assert.deepEqual(response.json(), { body: '{"a":"日本"}', n: 1 });
    assert.equal(server.lastHeaders.get("/post")?.get("content-type"), "application/json");
  }));

Deno.test("a bad base URL is refused with a clear error", () => {
  assert.throws(() => new HttpClient("node.example"), /Invalid service URL/);
  assert.throws(() => new HttpClient("ftp://node.example"), /Unsupported URL scheme/);
});

Deno.test("stream hands back good bodies unread and accepted error bodies intact", () =>
  withServer(async (_server, http) => {
    const good = await http.stream({ path: "/ok", query: { q: "s" } });
    assert.deepEqual(await new Response(good.body).json(), { ok: true, n: 1, q: "s" });
    const accepted = await http.stream({ path: "/not-found", acceptStatus: [404] });
    assert.equal(accepted.status, 404);
    assert.equal(await new Response(accepted.body).text(), "DDO not found");
    await assert.rejects(
      http.stream({ path: "/not-found" }),
      (error: unknown) => error instanceof NotFoundError && error.body === "DDO not found",
    );
  }));

Deno.test("a streamed body that stops flowing is cut after the timeout", () =>
  withServer(async (_server, http) => {
    // The body stalls until the bound and then ends: only the client's cut is an error.
    const stream = await http.stream({ path: "/stall-body", timeoutMs: 200 });
    const reader = stream.body.getReader();
    const first = await reader.read();
    assert.equal(new TextDecoder().decode(first.value), "first half;");
    await assert.rejects(
      reader.read(),
      (error: unknown) => error instanceof TimeoutError && /Download stalled/.test(error.message),
    );
  }));

Deno.test("a body that stops flowing after the headers is cut by the request's timeout", () =>
  withServer(async (server, http) => {
    // Headers and half a body, then silence until the bound, when the body ends: a read the
    // timeout does not reach would answer "first half;" after the bound instead of failing.
    await assert.rejects(
      http.request({ path: "/stall-body", timeoutMs: 200 }),
      (error: unknown) => error instanceof TimeoutError && /200 ms/.test(error.message),
    );
    assert.equal(server.hits.get("/stall-body"), 2, "timed out, retried once, timed out again");
  }, { retry: { retries: 1, baseDelayMs: 1, maxDelayMs: 1 } }));

Deno.test("a network error's cause and inspected form carry no signature", async () => {
  // A port nothing listens on: the fetch error message names the whole URL.
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  const http = new HttpClient(`http://127.0.0.1:${port}`, { ...quiet, retry: false });
  const signature = `0x${"ef".repeat(65)}`;
  await assert.rejects(
    http.request({ path: "/api/services/computeResult", query: { signature }, sensitive: true }),
    (error: unknown) => {
      assert.ok(error instanceof TidepoolError);
      const everything = [
        Deno.inspect(error, { depth: 10 }),
        String((error as Error).cause),
        JSON.stringify(error),
      ].join("\n");
      assert.ok(!everything.includes(signature.slice(2, 40)), "signature leaked");
      assert.match(Deno.inspect(error, { depth: 10 }), /signature=\[redacted\]/);
      return true;
    },
  );
});

Deno.test("a challenge sent as 503 is not retried", () =>
  withServer(async (server, http) => {
    await assert.rejects(
      http.request({ path: "/challenge-503" }),
      (error: unknown) => error instanceof BotChallengeError && error.status === 503,
    );
    assert.equal(server.hits.get("/challenge-503"), 1);
  }));

Deno.test("a slow reader of a streamed body is not taken for a stalled server", () =>
  withServer(async (_server, http) => {
    // The server sends each chunk within microseconds of the read that asks for it;
    // a loaded machine stretches that to tens of milliseconds, and the idle timeout
    // of a second is well beyond it. The reader then stops for longer than that
    // timeout, which must not count while it is not waiting for data.
    const idleMs = 1_000;
    const stream = await http.stream({ path: "/two-megabytes", timeoutMs: idleMs });
    const reader = stream.body.getReader();
    let bytes = 0;
    for (let chunk = 0;; chunk++) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      if (chunk === 1) await new Promise((resolve) => setTimeout(resolve, idleMs * 1.5)); // a slow disk
    }
    assert.equal(bytes, 2 * 1024 * 1024);
  }));
