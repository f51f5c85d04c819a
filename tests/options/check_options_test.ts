import assert from "node:assert/strict";
import { checkOptions } from "../../lib/options/check_options.ts";
import { TidepoolError } from "../../lib/errors/errors.ts";
import { OceanNode } from "../../lib/ocean/ocean_node.ts";
import { Subgraph } from "../../lib/subgraph/subgraph.ts";
import { Archive } from "../../lib/archive/archive.ts";
import { ExpressionSearch } from "../../lib/expressions/expression_search.ts";
import { chainOrders, chainOrderSchema } from "../../lib/ocean/order/chain_orders.ts";
import { maxPriceText } from "../../lib/ocean/order/order_datatoken.ts";

const rules = {
  timeoutMs: "number",
  fromBlock: "bigint",
  kind: ["dataset", "algorithm"],
  progress: ["function", "boolean", ["auto"]],
  tags: "strings",
} as const;

const refused = (pattern: RegExp, hint?: RegExp) => (error: unknown) => {
  assert.ok(error instanceof TidepoolError, String(error));
  assert.match(error.message, pattern);
  if (hint) assert.match(String(error.hint), hint);
  return true;
};

Deno.test("an unknown option is refused with the close names and the whole list", () => {
  assert.throws(
    () => checkOptions("f", { timeoutMS: 5 }, rules),
    refused(
      /^Unknown option timeoutMS of f; did you mean "timeoutMs"\?\n/,
      /f takes timeoutMs, fromBlock/,
    ),
  );
  assert.throws(
    () => checkOptions("new OceanNode", { pacing: false }, rules),
    refused(/^Unknown option pacing of new OceanNode\n/, /takes timeoutMs/),
  );
});

Deno.test("values are checked against their rules, naming the option and what came", () => {
  assert.throws(
    () => checkOptions("f", { timeoutMs: "30s" }, rules),
    refused(/Invalid option timeoutMs of f: expected a number, got "30s"/),
  );
  assert.throws(
    () => checkOptions("f", { kind: "model" }, rules),
    refused(/expected one of "dataset", "algorithm", got "model"/),
  );
  assert.throws(
    () => checkOptions("f", { progress: "yes" }, rules),
    refused(/expected a function or a boolean or one of "auto", got "yes"/),
  );
  assert.throws(() => checkOptions("f", { tags: "weather" }, rules), refused(/a list of strings/));
  assert.throws(() => checkOptions("f", 5 as never, rules), refused(/expected an object, got 5/));
  assert.deepEqual(checkOptions("f", { progress: "auto", tags: [] }, rules), {
    progress: "auto",
    tags: [],
  });
  assert.deepEqual(checkOptions("f", undefined, rules), {});
  assert.deepEqual(checkOptions("f", { timeoutMs: undefined }, rules), { timeoutMs: undefined });
});

Deno.test("a whole number where a bigint goes becomes one when exact, else is refused", () => {
  assert.equal(checkOptions("f", { fromBlock: 12 }, rules).fromBlock, 12n);
  assert.equal(
    checkOptions("f", { fromBlock: "900719925474099312" }, rules).fromBlock,
    900719925474099312n,
  );
  assert.equal(checkOptions("f", { fromBlock: 7n }, rules).fromBlock, 7n);
  assert.throws(
    () => checkOptions("f", { fromBlock: 1.5 }, rules),
    refused(/fromBlock of f: 1.5 is not a whole number/),
  );
  assert.throws(
    () => checkOptions("f", { fromBlock: 2 ** 60 }, rules),
    refused(/past 2\^53/, /1152921504606846976n/),
  );
  assert.throws(
    () => checkOptions("f", { fromBlock: "latest" }, rules),
    refused(/expected a whole number, got "latest"/),
  );
});

Deno.test("every client constructor checks its options before it does anything", () => {
  const url = "http://127.0.0.1:9";
  assert.throws(
    () => new OceanNode(url, { pacing: false } as never),
    refused(/Unknown option pacing of new OceanNode/),
  );
  assert.throws(
    () => new Subgraph(`${url}/subgraphs/name/a/b`, { minblock: 5 } as never),
    refused(/Unknown option minblock of new Subgraph; did you mean "minBlock"\?/),
  );
  assert.throws(
    () => new Archive(url, { acount: "acme" } as never),
    refused(/Unknown option acount of new Archive; did you mean "account"\?/),
  );
  assert.throws(
    () => new Archive(url, { auth: "sometimes" } as never),
    refused(/auth of new Archive: expected one of "auto", "always", "never"/),
  );
  assert.throws(
    () => new ExpressionSearch(url, { pageSize: 10.5 }),
    refused(/pageSize of new ExpressionSearch: expected a whole number, got 10.5/),
  );
  assert.throws(
    () => new OceanNode(url, { timeoutMs: "30s" } as never),
    refused(/timeoutMs of new OceanNode: expected a number/),
  );
  new OceanNode(url, { timeoutMs: 5, retry: false, progress: "auto" });
});

Deno.test("chainOrders: [] matches no order, and its options are checked, before any RPC call", async () => {
  // Nothing listens on port 9: a request there would fail as an unreachable chain.
  const rpcUrl = "http://127.0.0.1:9";
  const none = await chainOrders({ rpcUrl, datatokens: [] });
  assert.equal(none.numRows(), 0);
  assert.deepEqual(none.columnNames(), chainOrderSchema.columns.map((column) => column.name));
  await assert.rejects(
    chainOrders({ rpcUrl, fromBlock: 1.5 as never }),
    refused(/fromBlock of chainOrders: 1.5 is not a whole number/),
  );
  await assert.rejects(
    chainOrders({ rpcUrl, datatoken: ["0xabc"] } as never),
    refused(/Unknown option datatoken of chainOrders; did you mean "datatokens"\?/),
  );
  await assert.rejects(chainOrders({} as never), refused(/no rpcUrl/));
});

Deno.test("searchAssets refuses an unknown filter key or option before any request", async () => {
  let requests = 0;
  const node = new OceanNode("http://127.0.0.1:9", {
    progress: false,
    fetch: () => {
      requests++;
      return Promise.reject(new Error("no request was expected"));
    },
  });
  await assert.rejects(
    node.searchAssets({ tag: ["weather"] } as never),
    refused(/Unknown option tag of the searchAssets filter; did you mean "tags"/),
  );
  await assert.rejects(
    node.searchAssets({}, { pagesize: 10 } as never),
    refused(/Unknown option pagesize of searchAssets; did you mean "pageSize"\?/),
  );
  assert.equal(requests, 0);
});

Deno.test("Subgraph.orders refuses an unknown option before any request", async () => {
  let requests = 0;
  const sg = new Subgraph("http://127.0.0.1:9/subgraphs/name/a/b", {
    progress: false,
    fetch: () => {
      requests++;
      return Promise.reject(new Error("no request was expected"));
    },
  });
  await assert.rejects(
    sg.orders({ consummer: "0x0000000000000000000000000000000000000001" } as never),
    refused(/Unknown option consummer of Subgraph.orders; did you mean "consumer"\?/),
  );
  await assert.rejects(
    sg.orderPages({ orderDirection: "up" } as never).next(),
    refused(/orderDirection of Subgraph.orders: expected one of "asc", "desc", got "up"/),
  );
  assert.equal(requests, 0);
});

Deno.test("maxPrice takes text or a plain number; anything else is refused before any request", async () => {
  assert.equal(maxPriceText(1.5), "1.5");
  assert.equal(maxPriceText(" 2 "), "2");
  assert.equal(maxPriceText(undefined), undefined);
  for (const bad of [-1, 1e-7, NaN, "1,5", "abc", 2n]) {
    assert.throws(
      () => maxPriceText(bad),
      refused(/Invalid option maxPrice: expected a decimal amount/),
    );
  }
  let requests = 0;
  const node = new OceanNode("http://127.0.0.1:9", {
    progress: false,
    fetch: () => {
      requests++;
      return Promise.reject(new Error("no request was expected"));
    },
  });
  const asset = { documentId: "did:op:a", serviceId: "s" };
  await assert.rejects(
    node.startCompute({
      signer: { address: "0x0000000000000000000000000000000000000001" } as never,
      environment: "env",
      algorithm: asset,
      datasets: [{ documentId: "did:op:b", serviceId: "s" }],
      rpcUrl: "http://127.0.0.1:9",
      maxPrice: "one" as never,
    } as never),
    refused(/Invalid option maxPrice/),
  );
  assert.equal(requests, 0);
});
