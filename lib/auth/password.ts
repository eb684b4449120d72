import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";

// scrypt is memory-hard: each guess costs ~32 MiB and tens of milliseconds.
const PARAMS = { N: 2 ** 15, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;

function derive(password: string, salt: Buffer, o: { N: number; r: number; p: number }): Promise<Buffer> {
  const options: ScryptOptions = { ...o, maxmem: 256 * o.N * o.r };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize("NFKC"), salt, KEY_LENGTH, options, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

/** Returns `scrypt$N$r$p$salt$hash` (salt and hash base64url). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, PARAMS);
  return ["scrypt", PARAMS.N, PARAMS.r, PARAMS.p, salt.toString("base64url"), key.toString("base64url")].join(
    "$",
  );
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") return false;
  const [N, r, p] = parts.slice(1, 4).map(Number);
  if (!N || !r || !p) return false;
  const expected = Buffer.from(parts[5] ?? "", "base64url");
  const actual = await derive(password, Buffer.from(parts[4] ?? "", "base64url"), { N, r, p });
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

// Verifying against this where there is no password to check (an unknown email, a
// locked account) costs what a real check costs, so timing does not tell the cases
// apart. A hash of a random password nobody knows, made once with the same parameters
// (and kept here so even the first check costs one derivation, not two).
const DUMMY_HASH = "scrypt$32768$8$1$QP3gf5QpvHi4fiVWs4qFyg$sPGSKGeZ_-prEEJHvOjnsubBSxUipehIVnTjt_vUWz8";

export async function burnPasswordCheck(password: string): Promise<void> {
  await verifyPassword(password, DUMMY_HASH);
}
