import { badRequest } from '../../errors.js';
import { isCommonPassword } from './common-passwords.js';

/** The hashing libraries load on first use: a server nobody logs in to never carries them. */
let argon: Promise<typeof import('@node-rs/argon2')> | undefined;
const loadArgon = () => (argon ??= import('@node-rs/argon2'));
let bcryptModule: Promise<typeof import('bcryptjs')> | undefined;
const loadBcrypt = () => (bcryptModule ??= import('bcryptjs'));

async function argonVerify(hash: string, password: string): Promise<boolean> {
  return (await loadArgon()).verify(hash, password);
}

const ARGON_OPTIONS = { algorithm: 2 /* Argon2id */, memoryCost: 19456, timeCost: 2, parallelism: 1 };

export async function hashPassword(password: string): Promise<string> {
  return (await loadArgon()).hash(password, ARGON_OPTIONS);
}

/** A real hash of a random string: unknown users are checked against it so they take as long. */
let dummyHash: Promise<string> | undefined;
function getDummyHash(): Promise<string> {
  dummyHash ??= hashPassword(`dummy-${Math.random()}`);
  return dummyHash;
}

/** Verifies argon2id hashes, and bcrypt hashes imported from filebrowser. */
export async function verifyPassword(password: string, storedHash: string | undefined): Promise<boolean> {
  const hash = storedHash || (await getDummyHash());
  try {
    if (hash.startsWith('$argon2')) return await argonVerify(hash, password);
    if (/^\$2[abxy]\$/.test(hash)) return await (await loadBcrypt()).default.compare(password, hash);
  } catch {
    return false;
  }
  // Unknown format: spend the same time, then refuse.
  await argonVerify(await getDummyHash(), password).catch(() => false);
  return false;
}

/** Rejects passwords that are empty, too short (bytes, as upstream) or too common. */
export function validateNewPassword(password: string | undefined, minimumLength: number): string {
  if (!password) throw badRequest('password is empty');
  if (Buffer.byteLength(password) < minimumLength) throw badRequest(`password is too short, minimum length is ${minimumLength}`);
  if (isCommonPassword(password)) throw badRequest('password is too easy');
  if (Buffer.byteLength(password) > 1024) throw badRequest('password is too long');
  return password;
}
