/**
 * `SHA256SUMS` against the RO-Crate, for `verifyBundle`.
 *
 * @module
 */

import { bundleName, readSmallText } from "./_bundle_file.ts";
import { withinLimit } from "./_bundle_folder.ts";
import { parseSha256sums, SHA256SUMS, SHA256SUMS_LIMIT } from "./_sha256sums.ts";
import { checkedFile, CRATE, type Entity, type Found, overLimit, short } from "./_verify_common.ts";

/**
 * `SHA256SUMS` against the RO-Crate and the crate's own file: the same
 * files, with the SHA-256 the crate recorded (a file changed since is the
 * crate check's row, not this one's), and the crate file as it is now. So
 * `sha256sum -c SHA256SUMS` and verify agree, and an edited crate is caught.
 */
export async function checkSums(
  dir: string,
  listed: ReadonlyMap<string, Entity>,
  found: Found,
): Promise<void> {
  const read = await readSmallText(dir, SHA256SUMS, SHA256SUMS_LIMIT);
  if ("missing" in read) {
    found(
      SHA256SUMS,
      "sums",
      "missing: every bundle tidepool writes has one, for sha256sum -c SHA256SUMS",
    );
    return;
  }
  if ("problem" in read) {
    found(SHA256SUMS, "sums", read.problem);
    return;
  }
  const named = new Set<string>();
  const lines = withinLimit(
    parseSha256sums(read.text),
    (n) => found(SHA256SUMS, "sums", overLimit(n, "lines")),
  );
  for (const line of lines) {
    if ("problem" in line) {
      found(SHA256SUMS, "sums", `line ${line.line} ${line.problem}`);
      continue;
    }
    const name = bundleName(line.name, false);
    if ("refused" in name) {
      found(line.name, "sums", `not checked: SHA256SUMS lists it, but it ${name.refused}`);
      continue;
    }
    if (named.has(name.name)) {
      found(name.name, "sums", "listed more than once in SHA256SUMS");
      continue;
    }
    named.add(name.name);
    let expected: unknown;
    if (name.name === CRATE) {
      const file = await checkedFile(dir, CRATE, undefined, "SHA256SUMS");
      if ("problem" in file) {
        found(CRATE, "sums", file.problem);
        continue;
      }
      expected = file.sha256;
      if (expected !== line.sha256) {
        found(
          CRATE,
          "sums",
          `changed: its SHA-256 is ${short(expected)}, SHA256SUMS recorded ${short(line.sha256)}`,
        );
      }
      continue;
    }
    if (!listed.has(name.name)) {
      found(name.name, "sums", "SHA256SUMS lists it, the RO-Crate does not");
      continue;
    }
    expected = listed.get(name.name)?.sha256;
    if (expected !== line.sha256) {
      found(
        name.name,
        "sums",
        `SHA256SUMS records ${short(line.sha256)}, the RO-Crate ${short(expected)}`,
      );
    }
  }
  for (const path of [CRATE, ...listed.keys()]) {
    if (!named.has(path)) {
      found(path, "sums", "not in SHA256SUMS: sha256sum -c would not check it");
    }
  }
}
