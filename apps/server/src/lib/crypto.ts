import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';
import { hash, verify, type Options } from '@node-rs/argon2';

/**
 * argon2id at OWASP's recommended minimum (19 MiB, 2 passes, 1 lane). Written out rather than
 * left to the library's defaults, so that an update of the library cannot weaken new hashes.
 * Each hash carries its own parameters, so older hashes still verify.
 */
export const PASSWORD_HASHING: Options = {
  algorithm: 2, // Argon2id (the library's enum is a const enum, which isolatedModules forbids)
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
};

export function hashPassword(password: string): Promise<string> {
  return hash(password, PASSWORD_HASHING);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** Verifying against this keeps the time of "unknown user" equal to "wrong password". */
let decoyHash: Promise<string> | undefined;
export async function verifyDecoy(password: string): Promise<void> {
  decoyHash ??= hashPassword(randomBytes(16).toString('hex'));
  await verifyPassword(await decoyHash, password);
}

export function sha256(text: string | Buffer): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * HMAC-SHA-256 under a key of its own, drawn from DATA_KEY for one `purpose`: a fingerprint of
 * text that holds personal data (a mobile number has only 10⁷ or so values, which a plain hash
 * would give back to anyone with a database dump trying them all).
 */
export function createKeyedHash(hexKey: string, purpose: string): (text: string) => string {
  const key = createHmac('sha256', Buffer.from(hexKey, 'hex')).update(purpose).digest();
  return (text) => createHmac('sha256', key).update(text).digest('hex');
}

/** The keyed hash an erased customer's mobile number is kept as: erasure and import share it. */
export const erasedMobileHasher = (hexKey: string) => createKeyedHash(hexKey, 'erased-mobiles');

/**
 * AES-256-GCM for sensitive fields (Aadhaar, the messaging token).
 * Stored as "v1:<iv>:<tag>:<ciphertext>", base64url parts.
 */
export interface FieldCipher {
  encrypt(plain: string): string;
  decrypt(sealed: string): string;
}

export function createFieldCipher(hexKey: string): FieldCipher {
  const key = Buffer.from(hexKey, 'hex');
  if (key.length !== 32) throw new Error('DATA_KEY must be 32 bytes (64 hexadecimal characters).');
  return {
    encrypt(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return ['v1', iv, cipher.getAuthTag(), body]
        .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
        .join(':');
    },
    decrypt(sealed) {
      const [version, iv, tag, body] = sealed.split(':');
      if (version !== 'v1' || !iv || !tag || body === undefined)
        throw new Error('Unreadable encrypted field.');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([
        decipher.update(Buffer.from(body, 'base64url')),
        decipher.final(),
      ]).toString('utf8');
    },
  };
}

/**
 * Does `signature` (hex) equal HMAC-SHA-256 of `body` under `secret`? Compared in constant
 * time: a webhook's sender proves itself so, the body taken exactly as it arrived.
 */
export function hmacSha256Matches(body: Buffer, secret: string, signature: string): boolean {
  if (!/^[0-9a-f]{64}$/i.test(signature)) return false;
  const expected = createHmac('sha256', secret).update(body).digest();
  return timingSafeEqual(Buffer.from(signature, 'hex'), expected);
}
