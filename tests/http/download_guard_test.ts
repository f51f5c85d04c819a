/**
 * Every download is held to a length and to its signal until the last byte:
 * a body that never ends stops at its cap, an abort after the headers cuts
 * the transfer, a body shorter or longer than its declared length is an
 * error, and in every case nothing is left in the folder. Each hostile
 * server runs on loopback and reports, on its own side, that the client
 * hung up; the folder is read back from the disk.
 */

import assert from "node:assert/strict";
import { HttpClient } from "../../lib/http/client.ts";
import { ProtocolError, ResponseTooLargeError } from "../../lib/errors/errors.ts";
import { saveStream } from "../../lib/ocean/download/_save_stream.ts";
import { OceanNode, signerFromPrivateKey } from "../../mod.ts";
import { serveLocal } from "../../lib/sandbox/_serve.ts";

const CHUNK = new Uint8Array(64 * 1024).fill(97);

/** A server whose body never ends; it tells how much it sent and when the client hung up. */
function endlessServer(path = "/file") {
  let sent = 0;
  let hungUp!: () => void;
  const cancelled = new Promise<void>((resolve) => hungUp = resolve);
  const sentPast = new Map<number, () => void>();
  const server = serveLocal((request) => {
    if (new URL(request.url).pathname === "/api/services/nonce") return Response.json({ nonce: 0 });
    if (!new URL(request.url).pathname.startsWith(path)) {
      return new Response("not here", { status: 404 });
    }
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(CHUNK);
        sent += CHUNK.byteLength;
        for (const [bytes, resolve] of sentPast) if (sent >= bytes) resolve();
      },
      cancel() {
        hungUp();
      },
    });
    return new Response(body, { headers: { "content-type": "application/octet-stream" } });
  }, { maxRequests: 20 });
  /** Resolves once the server has sent at least `bytes`. */
  const whenSent = (bytes: number) => new Promise<void>((resolve) => sentPast.set(bytes, resolve));
  return { server, cancelled, whenSent, sent: () => sent };
}

/** Waits for an event, failing the test (not hanging it) if it never comes. */
async function eventually(event: Promise<void>, what: string): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const bound = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not happen`)), 20_000);
  });
  try {
    await Promise.race([event, bound]);
  } finally {
    clearTimeout(timer);
  }
}

async function entries(dir: string): Promise<string[]> {
  try {
    return [...Deno.readDirSync(dir)].map((entry) => entry.name);
  } catch {
    return [];
  }
}

Deno.test("a body that never ends stops at maxBytes; nothing is kept", async () => {
  const { server, cancelled, sent } = endlessServer();
  const dir = await Deno.makeTempDir();
  try {
    const http = new HttpClient(server.url, { progress: false });
    const stream = await http.stream({ path: "/file", maxBytes: 1024 * 1024 });
    const error = await saveStream(stream.body, {
      dir,
      filename: "f.bin",
      fallback: "f",
      what: "f",
    })
      .catch((e) => e);
    assert.ok(error instanceof ResponseTooLargeError, `got ${error}`);
    assert.match(error.message, /limit of 1048576 bytes/);
    assert.match(error.hint ?? "", /maxBytes/);
    await eventually(cancelled, "the server seeing the client hang up");
    assert.ok(sent() < 64 * 1024 * 1024, `${sent()} bytes sent`);
    assert.deepEqual(await entries(dir), []);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("an abort after the headers cuts the body; the reason is the caller's; nothing is kept", async () => {
  const { server, cancelled, whenSent } = endlessServer();
  const dir = await Deno.makeTempDir();
  try {
    const http = new HttpClient(server.url, { progress: false });
    const controller = new AbortController();
    const stream = await http.stream({ path: "/file", signal: controller.signal });
    const saving = saveStream(stream.body, {
      dir,
      filename: "f.bin",
      fallback: "f",
      what: "f",
      signal: controller.signal,
    }).catch((e) => e);
    await whenSent(2 * 1024 * 1024);
    controller.abort(new DOMException("enough", "AbortError"));
    const error = await saving;
    assert.equal(error?.name, "AbortError", `got ${error}`);
    await eventually(cancelled, "the server seeing the client hang up");
    assert.deepEqual(await entries(dir), []);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the client's own signal ends a body being read too", async () => {
  const { server, cancelled, whenSent } = endlessServer();
  try {
    const controller = new AbortController();
    const http = new HttpClient(server.url, { progress: false, signal: controller.signal });
    const stream = await http.stream({ path: "/file" });
    const reading = new Response(stream.body).arrayBuffer().catch((e) => e);
    await whenSent(1024 * 1024);
    controller.abort(new DOMException("client closed", "AbortError"));
    assert.equal((await reading)?.name, "AbortError");
    await eventually(cancelled, "the server seeing the client hang up");
  } finally {
    await server.close();
  }
});

/** A raw HTTP/1.1 server that declares one length and sends another, then closes. */
function lyingServer(declared: number, actual: number) {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const serving = (async () => {
    for await (const connection of listener) {
      const buffer = new Uint8Array(4096);
      await connection.read(buffer);
      const head = `HTTP/1.1 200 OK\r\ncontent-length: ${declared}\r\nconnection: close\r\n\r\n`;
      try {
        await connection.write(new TextEncoder().encode(head));
        await connection.write(new Uint8Array(actual).fill(98));
      } catch {
        // the client hung up
      }
      connection.close();
    }
  })();
  const { port } = listener.addr as Deno.NetAddr;
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      listener.close();
      await serving.catch(() => {});
    },
  };
}

Deno.test("a body shorter than its declared length is an error, and nothing is kept", async () => {
  const server = lyingServer(100_000, 1_000);
  const dir = await Deno.makeTempDir();
  try {
    const http = new HttpClient(server.url, { progress: false, retry: false });
    const stream = await http.stream({ path: "/file" });
    const error = await saveStream(stream.body, {
      dir,
      filename: "f.bin",
      fallback: "f",
      what: "f",
    })
      .catch((e) => e);
    assert.ok(error instanceof Error, `got ${error}`);
    assert.deepEqual(await entries(dir), []);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a declared length past the caller's maxBytes is refused before the body is read", async () => {
  const server = serveLocal(() => new Response(new Uint8Array(200_000)));
  try {
    const http = new HttpClient(server.url, { progress: false });
    const error = await http.stream({ path: "/file", maxBytes: 100_000 }).catch((e) => e);
    assert.ok(error instanceof ResponseTooLargeError, `got ${error}`);
    assert.match(error.hint ?? "", /declared 200000 bytes/);
    const whole = await http.stream({ path: "/file" });
    assert.equal((await new Response(whole.body).arrayBuffer()).byteLength, 200_000);
  } finally {
    await server.close();
  }
});

Deno.test("a body longer than its declared length is cut there, not written past it", async () => {
  const server = lyingServer(1_000, 100_000);
  const dir = await Deno.makeTempDir();
  try {
    const http = new HttpClient(server.url, { progress: false, retry: false });
    const stream = await http.stream({ path: "/file" });
    const saved = await saveStream(stream.body, {
      dir,
      filename: "f.bin",
      fallback: "f",
      what: "f",
    })
      .catch((e) => e);
    // HTTP/1.1 framing ends the body at its declared length; if more ever
    // reached the reader, the guard would refuse it (ProtocolError longBody).
    if (saved instanceof ProtocolError) assert.equal(saved.code, "longBody");
    else assert.equal((await Deno.stat(saved.path)).size, 1_000);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("downloadResults: an endless result stops at maxBytes, an abort ends it, no file is left", async () => {
  const { server, cancelled, whenSent } = endlessServer("/api/services/computeResult");
  const dir = await Deno.makeTempDir();
  try {
    const node = new OceanNode(server.url, { progress: false, retry: false });
    const signer = signerFromPrivateKey(`0x${"1".repeat(63)}2`);
    const job = {
      jobId: "job-1",
      environment: "0xenv",
      status: 70,
      owner: signer.address,
      results: [{ filename: "summary.json", filesize: 10, type: "output", index: 0 }],
    };
    const error = await node.downloadResults(
      // deno-lint-ignore no-explicit-any
      job as any,
      { signer, dir, maxBytes: 512 * 1024 },
    ).catch((e) => e);
    assert.ok(error instanceof ResponseTooLargeError, `got ${error}`);
    await eventually(cancelled, "the node seeing the client hang up");
    assert.deepEqual(await entries(dir), []);

    const controller = new AbortController();
    const downloading = node.downloadResults(
      // deno-lint-ignore no-explicit-any
      job as any,
      { signer, dir, signal: controller.signal },
    ).catch((e) => e);
    await whenSent(4 * 1024 * 1024);
    controller.abort(new DOMException("stop", "AbortError"));
    assert.equal((await downloading)?.name, "AbortError");
    assert.deepEqual(await entries(dir), []);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
