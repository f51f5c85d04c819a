/** The Python that runs the SPARQLWrapper + pandas contender (Debian's). */
export const PYTHON = "/usr/bin/python3";

/** Why SPARQLWrapper + pandas cannot run here, or undefined when they can. */
export function pythonMissing(): string | undefined {
  try {
    const { success } = new Deno.Command(PYTHON, {
      args: ["-c", "import SPARQLWrapper, pandas"],
      stderr: "null",
    }).outputSync();
    return success
      ? undefined
      : "not installed (apt-get install python3-sparqlwrapper python3-pandas)";
  } catch {
    return "not installed (no /usr/bin/python3)";
  }
}
