/**
 * The install the README and docs/cli.md give first works for a new user:
 * in a fresh `git clone` of this repository, with an empty home folder, the
 * shell block after the install marker runs as written (`deno install ...`
 * then `tidepool --help`) and the installed command prints its help. Both
 * guides give the same block, and neither gives a `jsr:` install as a
 * command to run (tidepool is not published yet). The Deno cache is the
 * machine's (DENO_DIR), so nothing is downloaded.
 */

import assert from "node:assert/strict";
import { denoDirectory } from "../bundle/_paper_project.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const MARKER = "<!-- run by tests/packaging/install_from_clone_test.ts -->";

/** The body of the first fenced `sh` block after the marker. */
function installBlock(markdown: string, source: string): string {
  const at = markdown.indexOf(MARKER);
  assert.ok(at >= 0, `${source} marks its install block with ${MARKER}`);
  const block = /```sh[^\n]*\n([\s\S]*?)```/.exec(markdown.slice(at));
  assert.ok(block, `a sh block follows the install marker in ${source}`);
  return block[1];
}

Deno.test("README and docs/cli.md give the same install, from a clone, first", async () => {
  const readme = installBlock(await Deno.readTextFile(`${ROOT}README.md`), "README.md");
  const guide = installBlock(await Deno.readTextFile(`${ROOT}docs/cli.md`), "docs/cli.md");
  assert.equal(guide, readme, "docs/cli.md and README.md install alike");
  assert.doesNotMatch(readme, /jsr:/, "the block to run installs from the clone, not from JSR");
  for (const file of ["README.md", "docs/cli.md"]) {
    const text = await Deno.readTextFile(`${ROOT}${file}`);
    for (const found of text.matchAll(/jsr:@tidepool/g)) {
      const before = text.slice(Math.max(0, found.index - 200), found.index);
      assert.match(before, /published/, `${file} gives a jsr: form without "once published"`);
    }
  }
});

Deno.test({
  name: "the documented install works in a fresh clone with an empty home folder",
  sanitizeResources: false,
  async fn() {
    const block = installBlock(await Deno.readTextFile(`${ROOT}README.md`), "README.md");
    const scratch = await Deno.makeTempDir({ prefix: "tidepool-install-" });
    try {
      const clone = `${scratch}/tidepool`;
      const home = `${scratch}/home`;
      await Deno.mkdir(home);
      const cloned = await new Deno.Command("git", {
        args: ["clone", "-q", ROOT, clone],
        stdout: "null",
        stderr: "piped",
      }).output();
      assert.equal(cloned.code, 0, new TextDecoder().decode(cloned.stderr));
      const denoBin = Deno.execPath().slice(0, Deno.execPath().lastIndexOf("/"));
      const { code, stdout, stderr } = await new Deno.Command("bash", {
        args: ["-e", "-c", block],
        cwd: clone,
        clearEnv: true,
        env: {
          HOME: home,
          // A new user's PATH: Deno, the system, and where `deno install` puts commands.
          PATH: `${home}/.deno/bin:${denoBin}:/usr/local/bin:/usr/bin:/bin`,
          DENO_DIR: await denoDirectory(),
          DENO_NO_UPDATE_CHECK: "1",
          NO_COLOR: "1",
        },
        stdout: "piped",
        stderr: "piped",
      }).output();
      const out = new TextDecoder().decode(stdout);
      const err = new TextDecoder().decode(stderr);
      assert.equal(code, 0, `the install block failed:\n${err}\n${out}`);
      assert.match(out, /Usage: tidepool <command>/, "tidepool --help printed its usage");
      const installed = await Deno.readTextFile(`${home}/.deno/bin/tidepool`);
      assert.match(installed, /cli\.ts/, "the installed command runs the clone's cli.ts");
      const status = await new Deno.Command("git", {
        args: ["status", "--porcelain"],
        cwd: clone,
        stdout: "piped",
      }).output();
      assert.equal(
        new TextDecoder().decode(status.stdout),
        "",
        "the install wrote nothing in the clone",
      );
    } finally {
      await Deno.remove(scratch, { recursive: true });
    }
  },
});
