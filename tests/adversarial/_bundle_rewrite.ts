/**
 * Helpers of the tests that rewrite a bundle consistently and check it from
 * outside: a file's SHA-256 as `sha256sum` writes it, a command's exit
 * code and output, and every record of a bundle rewritten to match its files.
 *
 * @module
 */

import { readTable } from "../../lib/files/read_table.ts";
import { tableDigest } from "../../lib/table/table_digest.ts";

type Entity = Record<string, unknown> & { "@id": string };

/** The SHA-256 of bytes, in lower-case hex. */
export async function sha256(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Runs a command to its end: its exit code, and its standard output then error. */
export async function run(
  command: string,
  args: string[],
  cwd?: string,
): Promise<{ code: number; out: string }> {
  const { code, stdout, stderr } = await new Deno.Command(command, {
    args,
    cwd,
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code, out: new TextDecoder().decode(stdout) + new TextDecoder().decode(stderr) };
}

/**
 * Rewrites every record of the bundle to match its files as they are now:
 * each listed file's SHA-256 and size, each table digest there is, the data
 * package, and `SHA256SUMS`.
 */
export async function resync(dir: string): Promise<void> {
  const crateText = () => Deno.readTextFile(`${dir}/ro-crate-metadata.json`);
  const crate = JSON.parse(await crateText());
  const graph = crate["@graph"] as Entity[];
  const root = graph.find((e) => e["@id"] === "./")!;
  const names = (root.hasPart as { "@id": string }[]).map((p) => p["@id"]);
  const descriptor = JSON.parse(await Deno.readTextFile(`${dir}/datapackage.json`));
  const record = async (name: string) => {
    const bytes = await Deno.readFile(`${dir}/${name}`);
    const entity = graph.find((e) => e["@id"] === name)!;
    entity.sha256 = await sha256(bytes);
    entity.contentSize = String(bytes.length);
    const digestId = (entity.identifier as { "@id": string } | undefined)?.["@id"];
    if (digestId) {
      graph.find((e) => e["@id"] === digestId)!.value =
        tableDigest(await readTable(`${dir}/${name}`)).sha256;
    }
    for (const resource of descriptor.resources) {
      if (resource.path === name) {
        Object.assign(resource, { hash: `sha256:${entity.sha256}`, bytes: bytes.length });
      }
    }
  };
  for (const name of names) if (name !== "datapackage.json") await record(name);
  await Deno.writeTextFile(`${dir}/datapackage.json`, JSON.stringify(descriptor, null, 2));
  await record("datapackage.json");
  await Deno.writeTextFile(`${dir}/ro-crate-metadata.json`, JSON.stringify(crate, null, 2));
  const lines = [];
  for (const name of ["ro-crate-metadata.json", ...names]) {
    lines.push(`${await sha256(await Deno.readFile(`${dir}/${name}`))}  ${name}`);
  }
  await Deno.writeTextFile(`${dir}/SHA256SUMS`, lines.join("\n") + "\n");
}
