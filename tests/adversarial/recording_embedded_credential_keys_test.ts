/**
 * A cache key never drops a part of the request, one step to the side of a
 * credential-named parameter: a parameter whose value merely holds a
 * credential. A download API asked `?url=<a signed address>` (an Azure SAS
 * address with `&sig=`, an address with a user and password) or
 * `?token=<registered key>:<collection>` was left out of the key whole, so
 * two requests for two different files were one recording, and the second
 * got the first one's answer. Checked by a loopback listener answering with
 * what it was asked and counting the requests; and the credentials are
 * still nowhere in the recording on disk.
 */

import assert from "node:assert/strict";
import { HttpClient, registerSecret } from "../../lib/http/mod.ts";
import { serveLocal } from "../../lib/sandbox/_serve.ts";
import { recordingText } from "./_recording_text.ts";

const KEY = "k3yQ7x2vN9pL4mR8sT1w";
registerSecret(KEY);

const CASES: [string, string, string, string[]][] = [
  [
    "a signed address (Azure SAS)",
    "https://a.blob.example/data/maps.csv?sv=2022-11-02&sig=Zm9vYmFyMTIzNDU2Nzg5MA%3D%3D",
    "https://a.blob.example/data/letters.csv?sv=2022-11-02&sig=cXV1eDk4NzY1NDMyMTBhYg%3D%3D",
    ["Zm9vYmFyMTIzNDU2Nzg5MA", "cXV1eDk4NzY1NDMyMTBhYg"],
  ],
  [
    "an address with a user and password",
    "https://reader:hunter2secret@files.example/maps.csv",
    "https://reader:hunter2secret@files.example/letters.csv",
    ["hunter2secret"],
  ],
  ["a registered key with what is asked", `${KEY}:maps`, `${KEY}:letters`, [KEY]],
];

for (const [what, first, second, secrets] of CASES) {
  const name = what.startsWith("a registered") ? "token" : "url";
  Deno.test(`?${name}= holding ${what}: two files are two recordings`, async () => {
    const dir = await Deno.makeTempDir({ prefix: "tidepool-recording-" });
    const seen: string[] = [];
    await using server = serveLocal((request) => {
      const asked = new URL(request.url).searchParams.get(name) ?? "";
      seen.push(asked);
      // The file's name, not the credential: what a download answers with.
      return Response.json({ file: asked.includes("maps") ? "maps" : "letters" });
    }, { maxRequests: 10 });
    try {
      const http = new HttpClient(server.url, { progress: false, cache: { dir, mode: "record" } });
      const ask = (value: string) => http.request({ path: "/fetch", query: { [name]: value } });
      assert.equal((await ask(first)).json<{ file: string }>().file, "maps");
      const other = await ask(second);
      assert.equal(other.json<{ file: string }>().file, "letters", "its own answer");
      assert.deepEqual(seen, [first, second], "the listener was asked twice");
      assert.equal((await ask(second)).fromCache, true, "and the recording answers again");
      const text = await recordingText(dir, true);
      for (const secret of secrets) {
        assert.ok(!text.includes(secret), `${secret} is in the recording`);
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
}
