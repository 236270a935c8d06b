/**
 * The factory of the ad images' object store (docs/architecture.md §The data): local disk under
 * DATA_DIR by default, or any S3-compatible store (STORAGE=s3). The interface is in types.ts.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { ApiEnv } from '../env';
import { createLocalStore } from './local';
import type { ObjectStore } from './types';

/**
 * The object store of the configuration: STORAGE=local (files under `<DATA_DIR>/images`) or s3.
 * The local store's PUT URLs are signed with a key derived from API_SERVICE_TOKEN when it is set
 * (so every api instance of a deployment accepts them), else with a random key of this process.
 * The AWS SDK is loaded only for STORAGE=s3 (it costs every start a fifth of a second otherwise).
 */
export async function openObjectStore(env: ApiEnv): Promise<ObjectStore> {
  if (env.STORAGE === 's3') {
    const { createS3Store } = await import('./s3');
    return createS3Store({
      bucket: env.S3_BUCKET ?? '',
      region: env.S3_REGION,
      endpoint: env.S3_ENDPOINT,
      forcePathStyle: env.S3_FORCE_PATH_STYLE,
      credentials:
        env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY
          ? { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY }
          : undefined,
      publicBaseUrl: env.S3_PUBLIC_BASE_URL,
    });
  }
  const signingKey = env.API_SERVICE_TOKEN
    ? createHmac('sha256', env.API_SERVICE_TOKEN).update('campus-bus local upload URLs').digest()
    : randomBytes(32);
  return createLocalStore({ dir: join(env.DATA_DIR, 'images'), signingKey });
}
