/**
 * The scratch copy `reproduce` re-runs a project in: which folder is the
 * project, and a copy of it made of regular files only, bounded in size.
 * The project under review is untrusted, so its root is chosen from what
 * holds both the source and the bundle (never a home folder or `/`), a
 * symbolic link is copied only as the regular file it names inside the
 * project, the copy is bounded in bytes and in files and folders, and anything else (a link out of the project, to a folder, a
 * FIFO, a device) is refused by name.
 *
 * @module
 */

import { dirname, join, relative, resolve, sep } from "node:path";
import { TidepoolError } from "../errors/errors.ts";
import { readTextWithin } from "../fs/read_bounded.ts";

/** The most bytes a scratch copy may take unless the reviewer allows more. */
export const DEFAULT_MAX_COPY_BYTES = 512 * 1024 * 1024;

/** The most files and folders a scratch copy may hold unless the reviewer allows more. */
export const DEFAULT_MAX_COPY_FILES = 100_000;

const CONFIGS = ["deno.json", "deno.jsonc"];

/** The most bytes of a `deno.json` read for its workspace members. */
const CONFIG_LIMIT = 1024 * 1024;

/** Names never copied, wherever they are in the project. */
const NOT_COPIED = new Set(["node_modules", ".git", ".npmrc"]);

/** Whether `inner` is `outer` or lies inside it. */
export function isInside(inner: string, outer: string): boolean {
  const path = relative(outer, inner);
  return path === "" || (!path.startsWith(`..${sep}`) && path !== ".." && !path.startsWith(sep));
}

/** The deepest folder that holds both paths. */
function commonFolder(a: string, b: string): string {
  let folder = a;
  while (!isInside(b, folder)) folder = dirname(folder);
  return folder;
}

/**
 * The `workspace` members a config names, as folders; empty when it names none or cannot be read.
 *
 * @param folder The folder whose `deno.json` or `deno.jsonc` is read.
 * @returns The members, absolute.
 */
export async function workspaceMembers(folder: string): Promise<string[]> {
  for (const name of CONFIGS) {
    let text: string;
    try {
      // A config is a small regular file: a FIFO or a device of that name is not opened.
      if (!(await Deno.lstat(join(folder, name))).isFile) continue;
      text = await readTextWithin(join(folder, name), CONFIG_LIMIT);
    } catch {
      continue;
    }
    try {
      // deno.jsonc may hold comments: strip whole-line and trailing ones before parsing.
      const config = JSON.parse(text.replace(/^\s*\/\/.*$/gm, "").replace(/\/\*[\s\S]*?\*\//g, ""));
      const members = Array.isArray(config?.workspace)
        ? config.workspace
        : Array.isArray(config?.workspace?.members)
        ? config.workspace.members
        : [];
      return members.filter((m: unknown) => typeof m === "string").map((m: string) =>
        resolve(folder, m)
      );
    } catch {
      return [];
    }
  }
  return [];
}

/** Folders of credentials no paper's project holds: a root holding one is refused. */
const SECRET_FOLDERS = [".ssh", ".gnupg", ".aws", ".netrc", ".docker", ".kube", ".password-store"];

/**
 * The root of the git repository that really holds `folder` (the walk is
 * on real paths, so a link into a repository does not make it the
 * project's) when that root also holds a Deno config file: a notebook in
 * `notebooks/` with its bundle beside it belongs to that project, whose
 * import map its re-run needs. The walk stops at the first `.git`, the
 * repository's own boundary; a `.git` counts only as a folder, or a file
 * that names one (`gitdir: `), and a config only as a regular file.
 */
async function repositoryProject(folder: string): Promise<string | undefined> {
  const kind = (path: string) => Deno.lstat(path).catch(() => undefined);
  let at: string;
  try {
    at = await Deno.realPath(folder);
  } catch {
    return undefined;
  }
  for (;; at = dirname(at)) {
    const git = await kind(join(at, ".git"));
    const repository = git?.isDirectory ||
      (git?.isFile && (await readTextWithin(join(at, ".git"), 4096).catch(() => ""))
        .startsWith("gitdir: "));
    if (repository) {
      for (const name of CONFIGS) if ((await kind(join(at, name)))?.isFile) return at;
      return undefined;
    }
    if (at === dirname(at)) return undefined;
  }
}

/**
 * The project's root: the deepest folder that holds both the source and the
 * bundle (the project's own folder, with its `deno.json` or `.git` when it
 * has one), or the root of the git repository holding them when that root
 * has the project's `deno.json`, or the Deno workspace whose member that folder is, when its
 * config names it (so the workspace's import map and its other members
 * come along). Never an ancestor found by walking up to the nearest
 * `deno.json`, never a home folder, a folder holding one, or `/`, compared
 * by real paths (a home folder or a project behind a link).
 *
 * @param source The notebook or script, absolute.
 * @param bundle The bundle folder, absolute.
 * @param home The reviewer's home folder, when known.
 * @returns The root folder.
 * @throws {TidepoolError} When it is a home folder, holds one, or is `/`.
 */
export async function projectRoot(
  source: string,
  bundle: string,
  home: string | undefined,
): Promise<string> {
  // The project's own folder: the one that holds both, or the repository they are in when its
  // root has the project's deno.json. An ancestor with only a deno.json, or only a .git, is never
  // taken for it (it may be a folder of anything, beside .ssh/ and Documents/).
  let root = commonFolder(dirname(source), bundle);
  root = await repositoryProject(root) ?? root;
  // A member of a Deno workspace resolves its imports through the workspace root.
  for (let folder = dirname(root); folder !== dirname(folder); folder = dirname(folder)) {
    const members = await workspaceMembers(folder);
    if (members.some((member) => isInside(root!, member))) {
      root = folder;
      break;
    }
  }
  // Compared by real paths: a home folder or a project reached through a link is the same folder.
  const real = (path: string) => Deno.realPath(path).catch(() => resolve(path));
  const realRoot = await real(root);
  const homes = home ? [resolve(home), await real(home)] : [];
  const held = homes.find((folder) => isInside(folder, realRoot) || isInside(folder, root!));
  const why = root === sep || realRoot === sep
    ? "it is the file system's root"
    : held !== undefined
    ? [root, realRoot].includes(held) || homes.includes(realRoot)
      ? "it is your home folder"
      : `it holds your home folder ${home}`
    : undefined;
  const secrets = await Promise.all(
    SECRET_FOLDERS.map((name) => Deno.lstat(join(root!, name)).then(() => name, () => undefined)),
  );
  const credentials = secrets.find((name) => name !== undefined);
  const reason = why ??
    (credentials ? `it holds ${credentials}, a folder of credentials` : undefined);
  if (reason) {
    throw new TidepoolError(
      `Cannot reproduce from ${root}: ${reason}, and reproduce copies the whole project folder`,
      {
        hint:
          "Keep the paper's project in a folder of its own, with its own deno.json or .git, that holds the notebook or script and its bundle",
      },
    );
  }
  return root;
}

/** What a copy skips (the author's bundle, `.git`) and how much it may take. */
export interface CopyLimits {
  /** Folders not copied, absolute. */
  readonly skip: ReadonlySet<string>;
  /** The most bytes of all files copied together. */
  readonly maxBytes: number;
  /** Bytes copied so far, shared by the copies of one scratch folder. */
  copied: number;
  /** The most files and folders copied together. */
  readonly maxEntries: number;
  /** Files and folders met so far, shared like `copied`. */
  entries: number;
}

/**
 * Copies a folder as regular files only. A symbolic link to a regular file
 * inside `within` is copied as that file; any other link, and anything that
 * is not a regular file or a folder, is refused by name before the copy
 * goes on. `node_modules` (the run uses Deno's cache), `.git` and `.npmrc`
 * (it would name the registry Deno downloads from, the author's choice) are
 * not copied.
 *
 * @param from The folder to copy.
 * @param to Where the copy goes (made when missing).
 * @param within The project root: the only place a link may point into.
 * @param limits What to skip, and the bounds on bytes and on files and folders.
 */
export async function copyRegularFiles(
  from: string,
  to: string,
  within: string,
  limits: CopyLimits,
): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const entry of Deno.readDir(from)) {
    const path = join(from, entry.name);
    if (limits.skip.has(path) || NOT_COPIED.has(entry.name)) continue;
    // Counted before anything is made: a million empty files cost a million inodes and the time.
    if (++limits.entries > limits.maxEntries) {
      throw new TidepoolError(
        `Cannot reproduce: the project at ${within} holds more than ${limits.maxEntries} files and folders (with its recording), the most a scratch copy may take`,
        {
          hint:
            "Move files the notebook or script does not read out of the project, or allow more (maxCopyFiles, --max-copy-files)",
        },
      );
    }
    if (entry.isDirectory) {
      await copyRegularFiles(path, join(to, entry.name), within, limits);
      continue;
    }
    const source = entry.isSymlink ? await linkedFile(path, within) : path;
    const info = await Deno.stat(source);
    if (!info.isFile) throw refused(path, within, "not a regular file (a FIFO, socket or device)");
    limits.copied += info.size;
    if (limits.copied > limits.maxBytes) {
      throw new TidepoolError(
        `Cannot reproduce: the project at ${within} holds more than ${
          Math.round(limits.maxBytes / 1024 / 1024)
        } MB, the most a scratch copy may take`,
        {
          hint:
            "Move large files the notebook or script does not read out of the project, or allow a larger copy (maxCopyBytes, --max-copy-mb)",
        },
      );
    }
    await Deno.copyFile(source, join(to, entry.name));
  }
}

/** The regular file a link names, when it lies inside the project; otherwise refused, naming the link. */
async function linkedFile(link: string, within: string): Promise<string> {
  let target: string;
  try {
    target = await Deno.realPath(link);
  } catch {
    throw refused(link, within, "a symbolic link to nothing");
  }
  const realRoot = await Deno.realPath(within);
  if (!isInside(target, realRoot)) {
    throw refused(link, within, `a symbolic link out of the project (to ${target})`);
  }
  if (!(await Deno.stat(target)).isFile) {
    throw refused(link, within, "a symbolic link to a folder");
  }
  return target;
}

function refused(path: string, within: string, what: string): TidepoolError {
  return new TidepoolError(
    `Cannot reproduce: ${relative(within, path)} in the project is ${what}`,
    {
      hint:
        "The re-run works on a copy made of regular files only: replace the link by the file it names, or move it out of the project",
    },
  );
}
