import assert from "node:assert/strict";
import {
  autoProgress,
  formatProgress,
  type ProgressEvent,
  progressSink,
  setDefaultProgress,
  silentProgress,
  startProgress,
} from "../../lib/progress/progress.ts";
import { HttpClient } from "../../lib/http/client.ts";

Deno.test("a task reports start, updates with totals, and its end", () => {
  const events: ProgressEvent[] = [];
  const task = startProgress((event) => events.push({ ...event }), "orders", { unit: "rows" });
  task.update(1000, { total: 12_000, detail: "page 1" });
  task.update(2000);
  task.finish();
  assert.deepEqual(events.map((e) => [e.done, e.total, e.state]), [
    [0, undefined, "running"],
    [1000, 12_000, "running"],
    [2000, 12_000, "running"],
    [2000, 12_000, "done"],
  ]);
  assert.equal(new Set(events.map((e) => e.id)).size, 1);
  assert.equal(formatProgress(events[1]), "orders: 1,000 / 12,000 rows (8%) page 1");
  assert.equal(formatProgress(events[3]), "orders: 2,000 / 12,000 rows (16%) page 1 done");
});

Deno.test("progress details are redacted", () => {
  const events: ProgressEvent[] = [];
  const task = startProgress((event) => events.push(event), "upload");
  task.update(1, { detail: "PUT https://s3.example/x?signature=abcdef123456&part=1" });
  assert.equal(events[1].detail, "PUT https://s3.example/x?signature=[redacted]&part=1");
});

Deno.test("outside a kernel and a terminal, automatic progress is silent", () => {
  // Tests run with stderr piped, never in the kernel.
  if (!Deno.stderr.isTerminal()) assert.equal(autoProgress(), silentProgress);
  assert.equal(progressSink(false), silentProgress);
  const mine = () => {};
  assert.equal(progressSink(mine), mine);
});

Deno.test("clients given no sink report to the installed default; a given sink or false wins", () => {
  const seen: string[] = [];
  const earlier = setDefaultProgress((event) => seen.push(`${event.label} ${event.state}`));
  try {
    new HttpClient("http://127.0.0.1:9").progress("searchAll").finish();
    new HttpClient("http://127.0.0.1:9", { progress: "auto" }).progress("harvest").finish();
    new HttpClient("http://127.0.0.1:9", { progress: false }).progress("silent").finish();
    const own: string[] = [];
    new HttpClient("http://127.0.0.1:9", { progress: (event) => own.push(event.label) })
      .progress("orders").finish();
    assert.deepEqual(seen, [
      "searchAll running",
      "searchAll done",
      "harvest running",
      "harvest done",
    ]);
    assert.deepEqual(own, ["orders", "orders"]);
  } finally {
    setDefaultProgress(earlier);
  }
  if (!Deno.stderr.isTerminal()) assert.equal(autoProgress(), silentProgress);
});
