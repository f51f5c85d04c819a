/**
 * Keys reach the command only through environment variables a flag names
 * (`--api-key-env NAME`): a command line is kept in shell history, in `ps`
 * output and in cron logs. So an argument that looks like a secret is
 * refused, without being repeated, and a key read from the environment is
 * registered for redaction before anything is sent.
 *
 * @module
 */

import { redact, registerSecret } from "../errors/redact.ts";
import { GATEWAY_KEY_PATH } from "../subgraph/gateway_key.ts";
import { UsageError } from "./exit_codes.ts";

/** Flags people reach for to pass a key; each is refused with the way to do it. */
const KEY_FLAGS =
  /^--?(?:api[-_]?key|key|private[-_]?key|secret|token|access[-_]?token|password|passwd|bearer)(?:=|$)/i;

const HOW =
  "Put the key in an environment variable and name the variable instead: export MY_KEY=...; then --api-key-env MY_KEY";

/** What a command-line argument looks like when it looks like a secret, else undefined. */
function secretShape(arg: string): string | undefined {
  const text = arg.includes("=") && arg.startsWith("-") ? arg.slice(arg.indexOf("=") + 1) : arg;
  if (/^(?:0x)?[0-9a-fA-F]{64}$/.test(text)) return "a private key";
  if (/^0x[0-9a-fA-F]{130}$/.test(text)) return "a signature";
  if (/^eyJ[\w-]+\.eyJ[\w-]+\.[\w-]*$/.test(text)) return "a token (JWT)";
  if (redact(text) !== text) return "a credential (a key, a token, a password or a signature)";
  try {
    const url = new URL(text);
    if (url.password !== "") return "a URL with a password";
    if (GATEWAY_KEY_PATH.test(url.pathname)) return "a gateway URL with its key in the path";
  } catch {
    // not a URL
  }
  return undefined;
}

/**
 * Refuses a command line that carries a key: a flag made for one
 * (`--api-key`, `--private-key`, `--token`, ...) or an argument shaped like
 * one (a 64-hex-digit private key, a signature, a JWT, a URL with a
 * password or a credential parameter, a value registered as secret). The
 * error names the argument's position, never its text.
 *
 * @param args The command line after the subcommand.
 * @throws {UsageError} When one looks like a secret.
 */
export function refuseSecrets(args: readonly string[]): void {
  args.forEach((arg, index) => {
    const flag = KEY_FLAGS.exec(arg);
    if (flag) {
      const name = arg.split("=")[0];
      throw new UsageError(`Refused ${name}: tidepool takes no key on the command line`, {
        hint: HOW,
      });
    }
    const shape = secretShape(arg);
    if (shape) {
      throw new UsageError(
        `Refused argument ${
          index + 1
        }: it looks like ${shape}, and a command line is kept in shell history and process lists`,
        { hint: HOW },
      );
    }
  });
}

/**
 * An environment variable's name as shells and cron tables write them
 * (upper case). Only such a name is accepted, and even then never repeated
 * in an error: a base32 key is upper case too.
 */
const VARIABLE_NAME = /^[A-Z_][A-Z0-9_]{0,63}$/;

/**
 * The key in the environment variable a flag names, registered for
 * redaction at once so that no output can show it.
 *
 * @param flag The flag, for the error (`--api-key-env`).
 * @param name The variable's name, as given.
 * @param read Reads an environment variable.
 * @returns The key.
 * @throws {UsageError} When the name is not a variable name or the variable is unset or empty.
 */
export function keyFromEnvironment(
  flag: string,
  name: string,
  read: (name: string) => string | undefined,
): string {
  if (!VARIABLE_NAME.test(name)) {
    // It may be the key itself, given where its variable's name belongs: never repeat it.
    throw new UsageError(
      `Refused ${flag}: its value is not an upper-case environment variable name`,
      {
        hint: `Give the variable's name, such as ${flag} MY_KEY, after export MY_KEY=...`,
      },
    );
  }
  const value = read(name);
  if (value === undefined || value.trim() === "") {
    // A key in capitals (base32) looks like a name: the value given is never repeated.
    throw new UsageError(`The environment variable that ${flag} names is not set`, {
      hint:
        `Export the variable before running tidepool (export MY_KEY=...; then ${flag} MY_KEY); the name given is not repeated, since a key typed in its place would be shown`,
    });
  }
  // fetch trims a header's value, so a server sees (and may echo) the key without
  // the line end or spaces a key file leaves around it: both forms are secret.
  const key = value.trim();
  registerSecret(value);
  registerSecret(key);
  return key;
}
