import { keccak256 } from "./_keccak.ts";
import { inCurveRange, publicKeyBytes } from "./_public_key.ts";
import type { LocalAccount } from "viem/accounts";
import { TidepoolError } from "../errors/errors.ts";
import { registerSecret } from "../errors/redact.ts";
import { checksumAddress } from "./_address.ts";
import type { Hex, Signer } from "./_signer_shape.ts";

export type { Hex, Signer } from "./_signer_shape.ts";

/**
 * A signer that keeps its private key inside: printing it, `Deno.inspect`,
 * `JSON.stringify` or an error show only the address. Signing is done by a
 * viem local account, loaded on the first signature so that importing
 * tidepool does not pay for viem.
 */
class PrivateKeySigner implements Signer {
  readonly address: Hex;
  readonly #privateKey: Hex;
  #account?: Promise<LocalAccount>;

  constructor(privateKey: Hex) {
    this.#privateKey = privateKey;
    this.address = addressOf(privateKey);
    Object.freeze(this);
  }

  async signMessage(args: { message: string | { raw: Hex | Uint8Array } }): Promise<Hex> {
    return (await this.viemAccount()).signMessage(args);
  }

  /** The viem local account, for transactions (orders); it holds the key, never shows it. */
  viemAccount(): Promise<LocalAccount> {
    // The field is set once; freezing the object does not freeze # fields.
    this.#account ??= import("viem/accounts").then(({ privateKeyToAccount }) =>
      privateKeyToAccount(this.#privateKey)
    );
    return this.#account;
  }

  toJSON(): { address: Hex } {
    return { address: this.address };
  }

  toString(): string {
    return `Signer(${this.address})`;
  }

  [Symbol.for("Deno.customInspect")](): string {
    return `Signer { address: "${this.address}" }`;
  }

  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return `Signer { address: "${this.address}" }`;
  }
}

/**
 * Makes a signer from a private key (64 hex digits, with or without `0x`).
 * The key is registered for redaction, so it can appear in no error, log or
 * cache file, and the signer never shows it.
 *
 * @param privateKey The key.
 * @param source How to name the key in an error (never its value).
 * @returns The signer.
 *
 * @example A signer from a test key
 * ```ts
 * const signer = signerFromPrivateKey("0x" + "11".repeat(32));
 * console.log(signer.address); // 0x19E7E376E7C213B7E7e7e46cc70A5dD086DAff2A
 * ```
 */
export function signerFromPrivateKey(privateKey: string, source = "the private key"): Signer {
  const trimmed = typeof privateKey === "string" ? privateKey.trim() : "";
  if (trimmed.length >= 8) registerSecret(trimmed);
  const hex = trimmed.startsWith("0x") || trimmed.startsWith("0X") ? trimmed.slice(2) : trimmed;
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) {
    throw new TidepoolError(
      `Invalid private key in ${source}: expected 64 hexadecimal digits, optionally after 0x, got ${trimmed.length} characters`,
      { hint: "Export the key of the wallet as hex; the value itself is never shown" },
    );
  }
  registerSecret(`0x${hex}`);
  registerSecret(hex);
  if (!inCurveRange(hex)) {
    throw new TidepoolError(`Invalid private key in ${source}: it is outside the secp256k1 range`, {
      hint: "A key is a number from 1 to the curve's order less 1; export the wallet's key again",
    });
  }
  return new PrivateKeySigner(`0x${hex.toLowerCase()}`);
}

/**
 * Makes a signer from a private key held in an environment variable.
 *
 * @param name The variable; default `OCEAN_PRIVATE_KEY`.
 * @returns The signer.
 *
 * @example A signer from the environment
 * ```ts ignore (reads a real private key from OCEAN_PRIVATE_KEY)
 * const signer = signerFromEnv(); // reads OCEAN_PRIVATE_KEY
 * ```
 */
export function signerFromEnv(name = "OCEAN_PRIVATE_KEY"): Signer {
  const keyShaped = typeof name === "string" && /^(?:0x)?[0-9a-f]{64}$/i.test(name.trim());
  if (typeof name !== "string" || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) || keyShaped) {
    // A key passed by mistake where the variable's name goes: never echoed.
    if (typeof name === "string" && name.trim().length >= 8) registerSecret(name.trim());
    const what = keyShaped
      ? "what looks like a private key"
      : `a value that is not a variable name (${String(name).length} characters, not shown)`;
    throw new TidepoolError(
      `signerFromEnv takes the name of an environment variable, and was given ${what}`,
      {
        hint:
          'Put the key in an environment variable and pass its name: signerFromEnv("OCEAN_PRIVATE_KEY"); or pass the key to signerFromPrivateKey(key)',
      },
    );
  }
  // A key passed where its variable's name belongs must not be repeated: only the default is named.
  const shown = name === "OCEAN_PRIVATE_KEY" ? name : "given to signerFromEnv";
  let value: string | undefined;
  try {
    value = Deno.env.get(name);
  } catch {
    // Deno's own message names the variable, so it is left out.
    throw new TidepoolError(`Cannot read the environment variable ${shown}`, {
      hint: "Pass the variable's name (not the key), and run Deno with --allow-env for it",
    });
  }
  if (value === undefined || value.trim() === "") {
    throw new TidepoolError(`The environment variable ${shown} is not set`, {
      hint:
        "Set the variable to the wallet's private key (64 hex digits) before starting, and pass its name, not the key",
    });
  }
  return signerFromPrivateKey(value, `the environment variable ${shown}`);
}

/** The EIP-55 checksummed address of a private key. */
function addressOf(privateKey: Hex): Hex {
  const address = [...keccak256(publicKeyBytes(privateKey.slice(2))).slice(-20)]
    .map((byte) => byte.toString(16).padStart(2, "0"))
    .join("");
  return checksumAddress(`0x${address}`);
}

/** Whether a value can be used as a signer. */
export function isSigner(value: unknown): value is Signer {
  return typeof value === "object" && value !== null &&
    typeof (value as Signer).address === "string" &&
    /^0x[0-9a-fA-F]{40}$/.test((value as Signer).address) &&
    typeof (value as Signer).signMessage === "function";
}
