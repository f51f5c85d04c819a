/**
 * The secp256k1 public key of a private key, for a signer's address at the
 * moment it is made (the API gives `signer.address` at once). Written here
 * so that importing tidepool loads no curve library (`@noble/curves` took
 * more than half of Arquero's import time); signing itself stays with viem,
 * loaded on the first signature. The key is multiplied by a Montgomery
 * ladder, the same steps for every bit, in Jacobian coordinates with one
 * inversion at the end.
 *
 * @module
 */

const P = 2n ** 256n - 2n ** 32n - 977n;
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const GX = 0x79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798n;
const GY = 0x483ada7726a3c4655da4fbfc0e1108a8fd17b448a68554199c47d08ffb10d4b8n;

/** A point in Jacobian coordinates; Z = 0 is the point at infinity. */
type Point = readonly [bigint, bigint, bigint];
const INFINITY: Point = [1n, 1n, 0n];

const mod = (a: bigint): bigint => {
  const r = a % P;
  return r < 0n ? r + P : r;
};

function double([x, y, z]: Point): Point {
  if (z === 0n || y === 0n) return INFINITY;
  const a = mod(x * x);
  const b = mod(y * y);
  const c = mod(b * b);
  const d = mod(2n * (mod((x + b) * (x + b)) - a - c));
  const e = mod(3n * a);
  const x3 = mod(e * e - 2n * d);
  return [x3, mod(e * (d - x3) - 8n * c), mod(2n * y * z)];
}

function add(p: Point, q: Point): Point {
  const [x1, y1, z1] = p;
  const [x2, y2, z2] = q;
  if (z1 === 0n) return q;
  if (z2 === 0n) return p;
  const z1z1 = mod(z1 * z1);
  const z2z2 = mod(z2 * z2);
  const u1 = mod(x1 * z2z2);
  const u2 = mod(x2 * z1z1);
  const s1 = mod(y1 * z2 * z2z2);
  const s2 = mod(y2 * z1 * z1z1);
  const h = mod(u2 - u1);
  const r = mod(2n * (s2 - s1));
  if (h === 0n) return r === 0n ? double(p) : INFINITY;
  const i = mod(4n * h * h);
  const j = mod(h * i);
  const v = mod(u1 * i);
  const x3 = mod(r * r - j - 2n * v);
  const y3 = mod(r * (v - x3) - 2n * s1 * j);
  const z3 = mod((mod((z1 + z2) * (z1 + z2)) - z1z1 - z2z2) * h);
  return [x3, y3, z3];
}

function power(base: bigint, exponent: bigint): bigint {
  let result = 1n;
  let b = mod(base);
  for (let e = exponent; e > 0n; e >>= 1n) {
    if (e & 1n) result = mod(result * b);
    b = mod(b * b);
  }
  return result;
}

/**
 * Whether hex digits (no 0x) are a secp256k1 private key: from 1 to the
 * group order less 1.
 */
export function inCurveRange(privateKey: string): boolean {
  const k = BigInt(`0x${privateKey}`);
  return k > 0n && k < N;
}

/**
 * The uncompressed public key's 64 bytes (x then y, without the 0x04 prefix).
 *
 * @param privateKey The key as 64 hex digits (no 0x), from 1 to the group order less 1.
 */
export function publicKeyBytes(privateKey: string): Uint8Array {
  if (!inCurveRange(privateKey)) {
    throw new RangeError("The private key is outside the curve's range");
  }
  const k = BigInt(`0x${privateKey}`);
  let r0: Point = INFINITY;
  let r1: Point = [GX, GY, 1n];
  for (let bit = 255; bit >= 0; bit--) {
    if ((k >> BigInt(bit)) & 1n) {
      r0 = add(r0, r1);
      r1 = double(r1);
    } else {
      r1 = add(r0, r1);
      r0 = double(r0);
    }
  }
  const [x, y, z] = r0;
  const zInverse = power(z, P - 2n);
  const zInverse2 = mod(zInverse * zInverse);
  const affineX = mod(x * zInverse2);
  const affineY = mod(y * zInverse2 * zInverse);
  const hex = affineX.toString(16).padStart(64, "0") + affineY.toString(16).padStart(64, "0");
  const out = new Uint8Array(64);
  for (let i = 0; i < 64; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}
