/** Process ids of anvil processes whose parent is this test process. */
export async function anvilChildren(): Promise<number[]> {
  const found: number[] = [];
  for await (const entry of Deno.readDir("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    const stat = await Deno.readTextFile(`/proc/${entry.name}/stat`).catch(() => "");
    // Fields after the parenthesised command: state, then parent pid.
    const match = /^\d+ \((.*)\) \S+ (\d+)/.exec(stat);
    if (match && match[1] === "anvil" && Number(match[2]) === Deno.pid) {
      found.push(Number(entry.name));
    }
  }
  return found;
}
