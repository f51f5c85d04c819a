/**
 * A recording on disk as one text to search: every path under it, each
 * file's text, and, when asked, each recorded body decoded from its base64.
 *
 * @module
 */

/** Every path under `dir`, each file's text and (with `bodies`) its decoded body, in one text. */
export async function recordingText(dir: string, bodies = false): Promise<string> {
  let text = "";
  const walk = async (folder: string) => {
    for await (const entry of Deno.readDir(folder)) {
      const path = `${folder}/${entry.name}`;
      text += `${path}\n`;
      if (entry.isDirectory) await walk(path);
      else {
        const raw = await Deno.readTextFile(path);
        text += raw;
        if (!bodies) continue;
        try {
          const body = JSON.parse(raw).bodyBase64;
          if (typeof body === "string") text += atob(body);
        } catch {
          // not a recorded answer: its text is there already
        }
      }
    }
  };
  await walk(dir);
  return text;
}
