// A saved browser state (cookies, localStorage, IndexedDB: Playwright's storageState) on disk. The
// file is a credential, whoever holds it is logged in: it is written 0600, atomically (a crash or a
// refused save never leaves half a file where the last good one was), and, when PAGELENS_STATE_KEY
// is set, sealed with AES-256-GCM under a key derived (scrypt) from it with a salt of its own. A
// sealed file that was altered or is opened with another key is refused whole: nothing is loaded.
// Nothing here ever puts a state value in a message; describeState gives counts and origins only.
import { createCipheriv, createDecipheriv, randomBytes, scrypt } from 'node:crypto';
import { chmod, open, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { PagelensError } from '../model/contracts/errors.js';

/** The environment variable holding the passphrase; never a flag (argv is visible to every local user). */
export const STATE_KEY_ENV = 'PAGELENS_STATE_KEY';

/** What Playwright's context.storageState({ indexedDB: true }) answers, as far as pagelens reads it. */
export interface StorageState {
  cookies: Array<{ name: string; value: string; domain: string; path: string; [k: string]: unknown }>;
  origins: Array<{ origin: string; localStorage?: Array<{ name: string; value: string }>; indexedDB?: unknown[]; [k: string]: unknown }>;
}

/** The header of a sealed file: magic, then salt, IV and tag; the rest is ciphertext. */
const MAGIC = Buffer.from('PLSTATE1');
const SALT_BYTES = 16;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const HEADER_BYTES = MAGIC.length + SALT_BYTES + IV_BYTES + TAG_BYTES;
/** scrypt's cost: ~50 ms per save or load, far beyond a guesser's budget per try. */
const SCRYPT = { N: 1 << 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

function deriveKey(passphrase: string, salt: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => scrypt(passphrase, salt, 32, SCRYPT, (e, key) => (e ? reject(e) : resolve(key))));
}

/** The passphrase from the environment, or undefined; a blank one is refused rather than taken for none. */
export function stateKey(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const v = env[STATE_KEY_ENV];
  if (v === undefined) return undefined;
  if (!v.trim()) throw new PagelensError('BAD_INPUT', `${STATE_KEY_ENV} is set but empty: give it a passphrase, or unset it to write state files unencrypted.`);
  return v;
}

export async function seal(plain: Buffer, passphrase: string): Promise<Buffer> {
  const salt = randomBytes(SALT_BYTES);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', await deriveKey(passphrase, salt), iv);
  // The header is authenticated too: a flipped salt or IV byte is refused like a flipped ciphertext byte.
  cipher.setAAD(Buffer.concat([MAGIC, salt, iv]));
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([MAGIC, salt, iv, cipher.getAuthTag(), body]);
}

export async function unseal(sealed: Buffer, passphrase: string, where: string): Promise<Buffer> {
  if (sealed.length < HEADER_BYTES) throw new PagelensError('BAD_INPUT', `${where}: the encrypted state file is cut short; nothing was loaded.`);
  let at = MAGIC.length;
  const salt = sealed.subarray(at, at += SALT_BYTES);
  const iv = sealed.subarray(at, at += IV_BYTES);
  const tag = sealed.subarray(at, at += TAG_BYTES);
  const decipher = createDecipheriv('aes-256-gcm', await deriveKey(passphrase, salt), iv);
  decipher.setAAD(Buffer.concat([MAGIC, salt, iv]));
  decipher.setAuthTag(tag);
  try {
    return Buffer.concat([decipher.update(sealed.subarray(at)), decipher.final()]);
  } catch {
    throw new PagelensError('BAD_INPUT', `${where}: the state file could not be decrypted: ${STATE_KEY_ENV} is not the key it was saved with, or the file was altered; nothing was loaded.`);
  }
}

const isSealed = (b: Buffer) => b.length >= MAGIC.length && b.subarray(0, MAGIC.length).equals(MAGIC);

/** Reads and checks a state file; BAD_INPUT with the reason (never its contents) when it cannot be used. */
export async function readStateFile(path: string, env: NodeJS.ProcessEnv = process.env): Promise<StorageState> {
  let raw: Buffer;
  try { raw = await readFile(path); } catch (e) {
    throw new PagelensError('BAD_INPUT', `${path}: the state file cannot be read (${(e as NodeJS.ErrnoException).code ?? 'error'}).`);
  }
  const key = stateKey(env);
  let plain: Buffer;
  if (isSealed(raw)) {
    if (!key) throw new PagelensError('BAD_INPUT', `${path} is encrypted: set ${STATE_KEY_ENV} to the passphrase it was saved with; nothing was loaded.`);
    plain = await unseal(raw, key, path);
  } else {
    // With a key set, only sealed files are trusted: a plaintext file in its place could be anyone's cookies.
    if (key) throw new PagelensError('BAD_INPUT', `${path} is not encrypted but ${STATE_KEY_ENV} is set: refused (save it again with the key set, or unset the key to load plaintext state); nothing was loaded.`);
    plain = raw;
  }
  let state: unknown;
  try { state = JSON.parse(plain.toString('utf8')); } catch {
    throw new PagelensError('BAD_INPUT', `${path} is not a storage state file (not JSON); nothing was loaded.`);
  }
  if (!isStorageState(state)) throw new PagelensError('BAD_INPUT', `${path} is not a storage state file (it needs "cookies" and "origins" lists); nothing was loaded.`);
  return state;
}

function isStorageState(v: unknown): v is StorageState {
  const s = v as Partial<StorageState> | null;
  return !!s && typeof s === 'object' && Array.isArray(s.cookies) && Array.isArray(s.origins)
    && s.cookies.every((c) => !!c && typeof c === 'object' && typeof c.name === 'string' && typeof c.value === 'string')
    && s.origins.every((o) => !!o && typeof o === 'object' && typeof o.origin === 'string');
}

/**
 * Writes the state: sealed when the key is set, 0600, through a file beside it renamed into place,
 * so that the last good file stays whole until the new one is complete.
 */
export async function writeStateFile(path: string, state: StorageState, env: NodeJS.ProcessEnv = process.env): Promise<{ encrypted: boolean }> {
  const key = stateKey(env);
  const plain = Buffer.from(JSON.stringify(state));
  const bytes = key ? await seal(plain, key) : plain;
  const tmp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  const file = await open(tmp, 'wx', 0o600);
  try {
    await file.writeFile(bytes);
    await file.sync();
  } catch (e) {
    await file.close();
    await rm(tmp, { force: true });
    throw e;
  }
  await file.close();
  try {
    // The mode at open() is masked by the umask; 0600 is what a credential needs whatever it is.
    await chmod(tmp, 0o600);
    await rename(tmp, path);
  } catch (e) {
    await rm(tmp, { force: true });
    throw new PagelensError('BAD_INPUT', `${path}: the state file cannot be written (${(e as NodeJS.ErrnoException).code ?? 'error'}).`);
  }
  return { encrypted: !!key };
}

/** The context's state with IndexedDB, as a file would hold it. */
export async function captureState(context: BrowserContext): Promise<StorageState> {
  return await context.storageState({ indexedDB: true }) as unknown as StorageState;
}

/** Puts a state into a context (cookies replaced; each origin's storage restored). */
export async function applyState(context: BrowserContext, state: StorageState): Promise<void> {
  // Playwright's own type names cookies and localStorage only; the IndexedDB it saved goes back the same way.
  await context.setStorageState(state as unknown as Parameters<BrowserContext['setStorageState']>[0]);
}

/** What a state holds, in counts and origins: never a name or a value (a state file is a credential). */
export function describeState(state: StorageState): string {
  const domains = new Set(state.cookies.map((c) => c.domain.replace(/^\./, '')));
  const storage = state.origins.filter((o) => o.localStorage?.length).length;
  const idb = state.origins.filter((o) => o.indexedDB?.length).length;
  return `${state.cookies.length} cookie(s) for ${domains.size} domain(s), localStorage on ${storage} origin(s), IndexedDB on ${idb} origin(s)`;
}
