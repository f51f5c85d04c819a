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
import { HUGE_BYTES, startFaultServer } from "./_fault_server.ts";

const quiet = { progress: false as const, warn: () => {} };
const fastRetry = { retries: 3, baseDelayMs: 10, maxDelayMs: 50 };

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
    assert.ok(elapsed < 3_000, `took ${elapsed} ms`);
  }));

Deno.test("503 with Retry-After as an HTTP date is waited out", () =>
  withServer(async (server, http) => {
    await http.request({ path: "/retry-after-date" });
    const [first, second] = server.times.get("/retry-after-date")!;
    // HTTP dates have one-second resolution: the wait is between 1 and 2 s.
    assert.ok(second - first >= 900, `waited only ${second - first} ms`);
    assert.ok(second - first < 3_000, `waited ${second - first} ms`);
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
    const started = Date.now();
    await assert.rejects(
      http.request({ path: "/retry-after" }),
      (error: unknown) => error instanceof HttpError && error.status === 429,
    );
    assert.ok(Date.now() - started < 500);
    assert.equal(server.hits.get("/retry-after"), 1);
  }, { retry: { ...fastRetry, maxElapsedMs: 200 } }));

Deno.test("a hang past the timeout is a TimeoutError, retried within bounds", () =>
  withServer(async (server, http) => {
    const started = Date.now();
    await assert.rejects(
      http.request({ path: "/hang", timeoutMs: 150 }),
      (error: unknown) => error instanceof TimeoutError && /150 ms/.test(error.message),
    );
    const elapsed = Date.now() - started;
    assert.equal(server.hits.get("/hang"), 2);
    assert.ok(elapsed >= 300 && elapsed < 1_500, `elapsed ${elapsed} ms`);
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

Deno.test("pacing keeps the minimum interval between request starts", () =>
  withServer(async (server, http) => {
    await Promise.all(Array.from({ length: 5 }, () => http.request({ path: "/counter" })));
    const times = server.times.get("/counter")!;
    assert.equal(times.length, 5);
    for (let i = 1; i < times.length; i++) {
      assert.ok(times[i] - times[i - 1] >= 95, `gap ${times[i] - times[i - 1]} ms`);
    }
  }, { minIntervalMs: 100 }));

Deno.test("pacing caps the requests in flight", () =>
  withServer(async (server, http) => {
    await Promise.all(Array.from({ length: 8 }, () => http.request({ path: "/slow" })));
    assert.equal(server.hits.get("/slow"), 8);
    assert.equal(server.inFlight.max, 2);
  }, { concurrency: 2 }));

Deno.test("an aborted signal cancels a request at once", () =>
  withServer(async (_server, http) => {
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(new Error("user cancelled")), 50);
    await assert.rejects(
      http.request({ path: "/hang", signal: controller.signal }),
      /user cancelled/,
    );
    assert.ok(Date.now() - started < 1_000);
  }));

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
    const started = Date.now();
    const stream = await http.stream({ path: "/stall-body", timeoutMs: 200 });
    const reader = stream.body.getReader();
    const first = await reader.read();
    assert.equal(new TextDecoder().decode(first.value), "first half;");
    await assert.rejects(
      reader.read(),
      (error: unknown) => error instanceof TimeoutError && /Download stalled/.test(error.message),
    );
    assert.ok(Date.now() - started < 2_000);
  }));

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
    const stream = await http.stream({ path: "/two-megabytes", timeoutMs: 150 });
    const reader = stream.body.getReader();
    let bytes = 0;
    for (let chunk = 0;; chunk++) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      if (chunk === 1) await new Promise((resolve) => setTimeout(resolve, 400)); // a slow disk
    }
    assert.equal(bytes, 2 * 1024 * 1024);
  }));
