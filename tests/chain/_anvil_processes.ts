/** Process ids of anvil processes started under this test process (anvil runs under a watchdog shell). */
export async function anvilChildren(): Promise<number[]> {
  const parents = new Map<number, number>();
  const names = new Map<number, string>();
  for await (const entry of Deno.readDir("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    const stat = await Deno.readTextFile(`/proc/${entry.name}/stat`).catch(() => "");
    // Fields after the parenthesised command: state, then parent pid.
    const match = /^\d+ \((.*)\) (\S+) (\d+)/.exec(stat);
    if (!match || match[2] === "Z") continue;
    parents.set(Number(entry.name), Number(match[3]));
    names.set(Number(entry.name), match[1]);
  }
  const descends = (pid: number) => {
    for (let at = parents.get(pid); at !== undefined && at > 1; at = parents.get(at)) {
      if (at === Deno.pid) return true;
    }
    return false;
  };
  return [...names].filter(([pid, name]) => name === "anvil" && descends(pid)).map(([pid]) => pid);
}

/** Whether a process runs (a zombie has exited and only waits to be reaped). */
export async function isRunning(pid: number): Promise<boolean> {
  const stat = await Deno.readTextFile(`/proc/${pid}/stat`).catch(() => "");
  return stat !== "" && !/^\d+ \(.*\) Z/.test(stat);
}
