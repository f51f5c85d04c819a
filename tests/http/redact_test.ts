import assert from "node:assert/strict";
import { TidepoolError } from "../../lib/http/errors.ts";
import { redact, registerSecret } from "../../lib/http/redact.ts";

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
