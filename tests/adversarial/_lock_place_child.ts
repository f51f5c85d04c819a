/**
 * A process that takes the wallet lock of one key, as an order does, with
 * the permissions and variables its parent gives it, and prints where it
 * took it (or the error) as JSON.
 */

import { walletLockPath, withWalletLock } from "../../lib/ocean/order/_wallet_lock.ts";

const wallet = "0x00000000000000000000000000000000000000aa";
try {
  await withWalletLock(31337, wallet, () => Promise.resolve());
  console.log(JSON.stringify({ path: walletLockPath(31337, wallet) }));
} catch (error) {
  console.log(JSON.stringify({ error: error instanceof Error ? error.message : String(error) }));
}
