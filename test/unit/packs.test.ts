import { describe, expect, it } from 'vitest';
import { CREDIT_PACKS, findPack } from '../../functions/domain/packs';
import { handler } from '../../functions/http/packs';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';

describe('credit packs (docs/product-spec.md §9)', () => {
  it('sells exactly Starter 40/$35, Popular 60/$45 (most popular), Pro 100/$75, in cents', () => {
    expect(CREDIT_PACKS.map((p) => [p.id, p.name, p.credits, p.priceCents, p.popular])).toEqual([
      ['starter', 'Starter Pack', 40, 3500, false],
      ['popular', 'Popular Pack', 60, 4500, true],
      ['pro', 'Pro Pack', 100, 7500, false],
    ]);
    expect(CREDIT_PACKS.map((p) => p.pricePerCredit)).toEqual([0.875, 0.75, 0.75]);
  });

  it('marks priority generation and extended support as the spec says', () => {
    expect(findPack('popular')?.features).toContain('Priority generation');
    expect(findPack('pro')?.features).toEqual(
      expect.arrayContaining(['Priority generation', 'Extended support']),
    );
    expect(findPack('starter')?.features).not.toContain('Priority generation');
    expect(findPack('enterprise')).toBeUndefined();
  });

  it('GET /api/packs answers 200 JSON with the packs', async () => {
    const result = await handler({} as APIGatewayProxyEventV2);
    expect(result.statusCode).toBe(200);
    expect(result.headers?.['content-type']).toMatch(/application\/json/);
    expect(JSON.parse(result.body!)).toEqual({ packs: CREDIT_PACKS });
  });
});
