/**
 * Credentials from the environment, for the command line: BETDESK_API_KEY and
 * BETDESK_API_SECRET. They are used as they are and never touch the keychain.
 */
import { AccountError } from './errors.js';

export const ENV_API_KEY = 'BETDESK_API_KEY';
export const ENV_API_SECRET = 'BETDESK_API_SECRET';

/** The environment's credentials; undefined when neither is set. */
export function credentialsFromEnv(
  env: Readonly<Record<string, string | undefined>> = process.env,
): { apiKey: string; secret: string } | undefined {
  const apiKey = env[ENV_API_KEY]?.trim() ?? '';
  const secret = env[ENV_API_SECRET] ?? '';
  if (apiKey === '' && secret === '') return undefined;
  if (apiKey === '' || secret === '') {
    throw new AccountError(
      'invalid',
      `Set both ${ENV_API_KEY} and ${ENV_API_SECRET} to use credentials from the environment (only ${apiKey === '' ? ENV_API_SECRET : ENV_API_KEY} is set).`,
    );
  }
  return { apiKey, secret };
}
