import { describe, expect, it } from 'vitest';
import { quotaRules } from '../../../functions/adapters/quotas';
import { UPLOAD_URL_TTL_SECONDS } from '../../../functions/adapters/storage';
import { createUploads, type CreateUploadsPorts } from '../../../functions/use-cases/create-uploads';
import { AccountDeletingError } from '../../../functions/domain/errors';
import { QuotaExceededError } from '../../../functions/domain/quotas';
import { failing } from './fakes/failures';
import { FakeQuotas } from './fakes/quotas';

const SUB = 'user-1';
const BATCH = '01KDWYDY00BBBBBBBBBBBBBBBB';
const NOW = Date.parse('2026-01-01T00:00:00.000Z');

function world() {
  const quotas = new FakeQuotas();
  const presigned: [string, string][] = [];
  const ports: CreateUploadsPorts = {
    consumeUploads: (sub, amount) => quotas.consumeQuota({ sub }, quotaRules().uploads, amount),
    presignUpload: async (key, contentType) => {
      presigned.push([key, contentType]);
      return { url: 'https://uploads.example.com', fields: { key, 'Content-Type': contentType } };
    },
    newBatchId: () => BATCH,
    now: () => NOW,
  };
  return { quotas, presigned, ports };
}

const files = (...types: string[]) => types.map((contentType) => ({ contentType }));

describe('createUploads', () => {
  it("presigns one POST per file, in order, under the caller's batch, and counts each file", async () => {
    const { ports, quotas, presigned } = world();
    const answer = await createUploads(SUB, files('image/jpeg', 'image/heic'), ports);
    expect(answer).toEqual({
      batchId: BATCH,
      uploads: [0, 1].map((n) => ({
        key: `uploads/${SUB}/${BATCH}/${n}`,
        url: 'https://uploads.example.com',
        fields: expect.objectContaining({ key: `uploads/${SUB}/${BATCH}/${n}` }),
      })),
      expiresAt: new Date(NOW + UPLOAD_URL_TTL_SECONDS * 1000).toISOString(),
    });
    expect(presigned.map(([, type]) => type)).toEqual(['image/jpeg', 'image/heic']);
    expect(quotas.usedBy(SUB, 'uploads')).toBe(2);
  });

  it('refuses a batch the hour cannot take whole, presigning nothing', async () => {
    const { ports, quotas, presigned } = world();
    quotas.used.set(`${SUB}|uploads`, quotaRules().uploads.limit - 1);
    await expect(createUploads(SUB, files('image/png', 'image/png'), ports)).rejects.toBeInstanceOf(
      QuotaExceededError,
    );
    expect(presigned).toEqual([]);
  });

  it('refuses an account whose deletion has started', async () => {
    const { ports, quotas } = world();
    quotas.deleting.add(SUB);
    await expect(createUploads(SUB, files('image/png'), ports)).rejects.toBeInstanceOf(AccountDeletingError);
  });

  it('fails when a POST cannot be presigned', async () => {
    const { ports } = world();
    await expect(
      createUploads(SUB, files('image/png'), {
        ...ports,
        presignUpload: failing(new Error('no credentials')),
      }),
    ).rejects.toThrow('no credentials');
  });
});
