import { createPrivateKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const b64url = (value: Buffer | string) => Buffer.from(value).toString('base64url');

/** Signs `claims` as an RS256 JWT with `key` and header `kid`. Test helper for forging tokens. */
export function signJwt(claims: Record<string, unknown>, key: KeyObject, kid: string): string {
  const header = b64url(JSON.stringify({ alg: 'RS256', typ: 'JWT', kid }));
  const payload = b64url(JSON.stringify(claims));
  const signature = sign('RSA-SHA256', Buffer.from(`${header}.${payload}`), key);
  return `${header}.${payload}.${b64url(signature)}`;
}

/** cognito-local's own signing key (shipped in its package): lets a test mint tokens with a valid signature. */
export function cognitoLocalKey(): { key: KeyObject; kid: string } {
  const file = createRequire(import.meta.url).resolve('cognito-local/lib/keys/cognitoLocal.private.json');
  const { jwk } = JSON.parse(readFileSync(file, 'utf8')) as { jwk: Record<string, string> & { kid: string } };
  return { key: createPrivateKey({ key: jwk, format: 'jwk' }), kid: jwk.kid };
}

/** A fresh RSA key nobody trusts. */
export function strangerKey(): KeyObject {
  return generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
}
