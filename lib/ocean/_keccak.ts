/**
 * Keccak-256 (the pre-standard padding Ethereum uses, not SHA3-256), for
 * checksummed addresses and signed-request hashes. Written here so that
 * importing tidepool loads no hashing library: `@noble/hashes/sha3` alone
 * took half of Arquero's import time. The round constants and rotation
 * offsets are computed from their definitions in FIPS 202 (the LFSR and the
 * triangular numbers), not typed in. Lanes are pairs of 32-bit words.
 *
 * @module
 */

const RATE = 136; // bytes: 1600 - 2 * 256 bits

/** ι's round constants as [low, high] words, from the LFSR x^8 + x^6 + x^5 + x^4 + 1. */
const ROUND_CONSTANTS = (() => {
  let r = 1;
  const bit = () => {
    const out = r & 1;
    r = (r << 1) ^ ((r & 0x80) ? 0x171 : 0);
    return out;
  };
  const words = new Uint32Array(48);
  for (let round = 0; round < 24; round++) {
    for (let j = 0; j < 7; j++) {
      if (!bit()) continue;
      const position = (1 << j) - 1;
      words[2 * round + (position >= 32 ? 1 : 0)] |= 1 << (position % 32);
    }
  }
  return words;
})();

/** ρ's offsets and π's targets along the walk (x, y) -> (y, 2x + 3y) from (1, 0). */
const [ROTATIONS, TARGETS] = (() => {
  const rotations: number[] = [];
  const targets: number[] = [];
  let x = 1;
  let y = 0;
  for (let t = 0; t < 24; t++) {
    rotations.push(((t + 1) * (t + 2) / 2) % 64);
    [x, y] = [y, (2 * x + 3 * y) % 5];
    targets.push(x + 5 * y);
  }
  return [rotations, targets];
})();

/** The permutation, in place on 25 lanes (low word at 2i, high at 2i + 1). */
function keccakF(s: Uint32Array): void {
  const c = new Uint32Array(10);
  for (let round = 0; round < 24; round++) {
    // θ
    for (let x = 0; x < 5; x++) {
      c[2 * x] = s[2 * x] ^ s[2 * x + 10] ^ s[2 * x + 20] ^ s[2 * x + 30] ^ s[2 * x + 40];
      c[2 * x + 1] = s[2 * x + 1] ^ s[2 * x + 11] ^ s[2 * x + 21] ^ s[2 * x + 31] ^ s[2 * x + 41];
    }
    for (let x = 0; x < 5; x++) {
      const left = (x + 4) % 5;
      const right = (x + 1) % 5;
      const lo = c[2 * left] ^ ((c[2 * right] << 1) | (c[2 * right + 1] >>> 31));
      const hi = c[2 * left + 1] ^ ((c[2 * right + 1] << 1) | (c[2 * right] >>> 31));
      for (let y = 0; y < 25; y += 5) {
        s[2 * (x + y)] ^= lo;
        s[2 * (x + y) + 1] ^= hi;
      }
    }
    // ρ and π: carry lane 1 along the walk, rotating each lane into the next place.
    let lo = s[2];
    let hi = s[3];
    for (let t = 0; t < 24; t++) {
      const to = TARGETS[t];
      const nextLo = s[2 * to];
      const nextHi = s[2 * to + 1];
      const n = ROTATIONS[t];
      if (n === 0) {
        s[2 * to] = lo;
        s[2 * to + 1] = hi;
      } else if (n < 32) {
        s[2 * to] = (lo << n) | (hi >>> (32 - n));
        s[2 * to + 1] = (hi << n) | (lo >>> (32 - n));
      } else if (n === 32) {
        s[2 * to] = hi;
        s[2 * to + 1] = lo;
      } else {
        const m = n - 32;
        s[2 * to] = (hi << m) | (lo >>> (32 - m));
        s[2 * to + 1] = (lo << m) | (hi >>> (32 - m));
      }
      lo = nextLo;
      hi = nextHi;
    }
    // χ
    for (let y = 0; y < 25; y += 5) {
      for (let x = 0; x < 5; x++) {
        c[2 * x] = s[2 * (x + y)];
        c[2 * x + 1] = s[2 * (x + y) + 1];
      }
      for (let x = 0; x < 5; x++) {
        const a = (x + 1) % 5;
        const b = (x + 2) % 5;
        s[2 * (x + y)] = c[2 * x] ^ (~c[2 * a] & c[2 * b]);
        s[2 * (x + y) + 1] = c[2 * x + 1] ^ (~c[2 * a + 1] & c[2 * b + 1]);
      }
    }
    // ι
    s[0] ^= ROUND_CONSTANTS[2 * round];
    s[1] ^= ROUND_CONSTANTS[2 * round + 1];
  }
}

/**
 * The Keccak-256 hash of some bytes.
 *
 * @param data The bytes.
 * @returns 32 bytes.
 */
export function keccak256(data: Uint8Array): Uint8Array {
  const state = new Uint32Array(50);
  // Absorb whole blocks, then the padded rest: 0x01 after the data, 0x80 in the block's last byte.
  const blocks = Math.floor(data.length / RATE);
  const block = new Uint8Array(RATE);
  for (let b = 0; b <= blocks; b++) {
    const chunk = data.subarray(b * RATE, (b + 1) * RATE);
    block.fill(0);
    block.set(chunk);
    if (b === blocks) {
      block[chunk.length] ^= 0x01;
      block[RATE - 1] ^= 0x80;
    }
    const words = new DataView(block.buffer);
    for (let i = 0; i < RATE / 4; i++) state[i] ^= words.getUint32(4 * i, true);
    keccakF(state);
  }
  const out = new Uint8Array(32);
  const view = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) view.setUint32(4 * i, state[i], true);
  return out;
}
