import assert from "node:assert/strict";
import { TidepoolError } from "../../lib/errors/errors.ts";
import { redact, redactParams, registerSecret } from "../../lib/errors/redact.ts";

Deno.test("redaction removes secret shapes and registered values", () => {
  const key = `0x${"4c".repeat(32)}`;
  registerSecret(key);
  assert.equal(redact(`key ${key} and ${key.slice(2)}`), "key [redacted] and [redacted]");
  assert.equal(redact("Authorization: Bearer eyJhbGciOi.x.y"), "Authorization: Bearer [redacted]");
  assert.equal(
    redact('{"signature":"0xdead","nonce":"5"}'),
    '{"signature":"[redacted]","nonce":"5"}',
  );
  assert.equal(redact("a?token=abc&b=1"), "a?token=[redacted]&b=1");
  assert.equal(redact(`sig 0x${"f".repeat(130)}`), "sig [redacted]");
  // A transaction hash is not a secret and stays readable.
  const tx = `0x${"9".repeat(64)}`;
  assert.equal(redact(`tx ${tx}`), `tx ${tx}`);
});

Deno.test("errors redact their message, details and hint", () => {
  registerSecret("archive.SecretPart99");
  const error = new TidepoolError("Key archive.SecretPart99 refused", {
    details: "bad key archive.SecretPart99",
    hint: "replace archive.SecretPart99",
  });
  assert.ok(!error.message.includes("SecretPart99"));
  assert.ok(!String(error.stack).includes("SecretPart99"));
  assert.match(error.message, /^Key \[redacted\] refused\nServer said: bad key \[redacted\]/);
});

Deno.test("redactParams keeps a call's parameters as JSON, without secrets or plumbing", () => {
  const apiKey = "ak-provenance-0123456789";
  registerSecret(apiKey);
  const signer = { address: "0xAbC", signMessage: () => Promise.resolve("0x") };
  const params = {
    q: "map",
    apiKey: "kept-nowhere-1",
    auth: { token: "t-1234567890", user: "ann" },
    note: `sent with ${apiKey}`,
    url: `https://x.example/?signature=0x${"ab".repeat(65)}`,
    consumer: signer,
    from: new Date(0),
    block: 10n,
    tags: ["a", new Date(1)],
    signal: new AbortController().signal,
    progress: () => {},
    missing: undefined,
  };
  assert.deepEqual(redactParams(params), {
    q: "map",
    auth: { user: "ann" },
    note: "sent with [redacted]",
    url: "https://x.example/?signature=[redacted]",
    consumer: "0xAbC",
    from: "1970-01-01T00:00:00.000Z",
    block: "10",
    tags: ["a", "1970-01-01T00:00:00.001Z"],
  });
});

Deno.test("redactParams drops a parameter by the words of its name, and keeps public look-alikes", () => {
  const secretNames = [
    "token",
    "key",
    "accessToken",
    "access_token",
    "idToken",
    "refreshToken",
    "authToken",
    "x-auth-token",
    "clientSecret",
    "client_secret",
    "apiKey",
    "APIKey",
    "api_key",
    "x-api-key",
    "X-API-KEY",
    "apikey",
    "privateKey",
    "PRIVATE_KEY",
    "password",
    "dbPassword",
    "authorization",
    "Authorization",
    "bearerToken",
    "signature",
    "orderSignature",
    "credentials",
    "awsCredential",
    "mnemonic",
  ];
  const publicNames = [
    "datatoken",
    "datatokenAddress",
    "isDatatoken",
    "feeToken",
    "providerFeeToken",
    "tokenId",
    "tokenURI",
    "resumptionToken",
    "nextToken",
    "keyword",
    "keywords",
    "publicKey",
    "sortKey",
    "author",
    "auth",
  ];
  const params = Object.fromEntries(
    [...secretNames, ...publicNames].map((name) => [name, `value of ${name}`]),
  );
  const kept = redactParams(params);
  assert.deepEqual(Object.keys(kept).sort(), [...publicNames].sort());
});
