/**
 * Helpers of the tests that rewrite a bundle consistently and check it from
 * outside: a file's SHA-256 as `sha256sum` writes it, and a command's exit
 * code and output.
 *
 * @module
 */

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
