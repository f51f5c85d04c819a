import assert from "node:assert/strict";
import { TidepoolError } from "../../lib/errors/errors.ts";
import { dateInput } from "../../lib/table/date_input.ts";
import { unixSeconds } from "../../lib/subgraph/_inputs.ts";
import { searchBody } from "../../lib/ocean/_search_body.ts";

Deno.test("dates are a Date or ISO 8601; a day, a zone and no zone (UTC) are read exactly", () => {
  assert.equal(dateInput("2025-02-01", "from").toISOString(), "2025-02-01T00:00:00.000Z");
  assert.equal(dateInput("2025-02-01T09:30", "from").toISOString(), "2025-02-01T09:30:00.000Z");
  assert.equal(
    dateInput("2025-02-01T09:30:00.250+09:00", "from").toISOString(),
    "2025-02-01T00:30:00.250Z",
  );
  assert.equal(
    dateInput("2025-02-01T00:00:00-0130", "from").toISOString(),
    "2025-02-01T01:30:00.000Z",
  );
  const date = new Date(Date.UTC(2024, 1, 29));
  assert.equal(dateInput(date, "from"), date);
});

Deno.test("anything else is an error that shows the accepted forms", () => {
  for (
    const bad of ["01/02/2025", "2025-13-45", "2025-02-30", "2025-02-01T25:00Z", "yesterday", ""]
  ) {
    assert.throws(() => dateInput(bad, "from"), (error: Error) => {
      assert.ok(error instanceof TidepoolError);
      assert.match(error.message, new RegExp(`^Invalid from date ${JSON.stringify(bad)}: `));
      assert.match(
        error.message,
        /What to do: Give a Date, a day \(2025-01-31\) or an ISO 8601 time/,
      );
      return true;
    });
  }
  assert.throws(() => dateInput(new Date(NaN), "until"), /Invalid until date Invalid Date/);
});

Deno.test("the subgraph and the node read their date filters the same way", () => {
  assert.throws(() => unixSeconds("01/02/2025", "since"), /Invalid since date "01\/02\/2025"/);
  assert.equal(unixSeconds("2025-01-02", "since"), Date.UTC(2025, 0, 2) / 1000);
  assert.equal(unixSeconds(1_700_000_000, "since"), 1_700_000_000);
  assert.throws(
    () => searchBody({ createdAfter: "2025-13-45" }, {}),
    /Invalid createdAfter date "2025-13-45": it names no real day or time/,
  );
});

Deno.test("a number given as a date is Unix seconds or milliseconds after 2000, or refused saying what it meant", async () => {
  assert.equal(unixSeconds(1_780_272_000, "since"), 1_780_272_000);
  assert.equal(unixSeconds(1_780_272_000_000, "since"), 1_780_272_000);
  assert.equal(unixSeconds("1780272000", "since"), 1_780_272_000);
  assert.throws(
    () => unixSeconds(20260601, "since"),
    (error: Error) => {
      assert.match(
        error.message,
        /^Invalid since time 20260601: a number is read as Unix seconds or milliseconds, and as seconds it would be 1970-08-23T\S+Z, not a time between 2000 and 2100/,
      );
      assert.match(
        error.message,
        /What to do: For the day 2026-06-01, write "2026-06-01" \(or a Date\)/,
      );
      return true;
    },
  );
  assert.throws(() => unixSeconds(0, "until"), /as seconds it would be 1970-01-01T00:00:00.000Z/);
  // And through the public call, before any request: every order would have come back.
  const { Subgraph } = await import("../../lib/subgraph/subgraph.ts");
  let requests = 0;
  const subgraph = new Subgraph("http://127.0.0.1:9/subgraphs/name/a/b", {
    fetch: () => (requests++, Promise.reject(new Error("sent"))),
    retry: false,
  });
  await assert.rejects(subgraph.orders({ since: 20260601 }), /For the day 2026-06-01/);
  assert.equal(requests, 0);
});
