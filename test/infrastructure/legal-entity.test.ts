import { App } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  legalEntityFromEnv,
  PRERENDERED_WITH_FILE,
  writePrerenderedWith,
} from '../../frontend/scripts/prerendered-with';
import {
  legalEntityFromContext,
  prerenderedLegalProblem,
} from '../../infrastructure/constructs/legal-entity';
import { InvalidContextError } from '../../infrastructure/constructs/refusal';
import { settingsFromContext } from '../../infrastructure/constructs/settings';
import {
  assertDeployable,
  HeadshotStudioStack,
  IncompleteBuildError,
  type HeadshotStudioStackProps,
} from '../../infrastructure/stack';
import { testTempDir } from '../helpers/temp-dir';
import { NOWHERE } from './helpers';
import { LEGAL_CONTEXT } from './legal-context';

/*
 * The company behind the legal pages is deployment configuration (issue 35 item 2): a production synth without it
 * refuses with one line that says what to pass; other stages keep the pages' Draft notice; the stack writes it into
 * the site's config.json. Tested in-process through the app's own context validation (no `cdk` CLI run).
 */

const settings = (context: Record<string, unknown>) => settingsFromContext(new App({ context }).node);
const MAIL = { mailFrom: 'headshots@example.com' };
const ENTITY = {
  name: LEGAL_CONTEXT.legalName,
  address: LEGAL_CONTEXT.legalAddress,
  registration: LEGAL_CONTEXT.legalRegistration,
  jurisdiction: LEGAL_CONTEXT.legalJurisdiction,
};

/** The InvalidContextError `run` throws (the test fails when it throws none or another error). */
function refusalOf(run: () => unknown): InvalidContextError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidContextError);
    return error as InvalidContextError;
  }
  return expect.unreachable('no refusal');
}

describe('the legal entity in the CDK context', () => {
  it('refuses a production synth without it, in ONE line naming every key to pass', () => {
    const refusal = refusalOf(() => settings({ stage: 'prod', ...MAIL }));
    expect(refusal.problems).toEqual([
      'prod needs the company its legal pages name: pass -c legalName=<registered company name> ' +
        '-c legalAddress=<registered office address> -c legalRegistration=<company number> ' +
        '-c legalJurisdiction=<country or state of the governing law> ' +
        '-c supportEmail=<the address customers write to> (docs/deploy.md, "A production stage")',
    ]);
    expect(refusal.message).toBe(`Invalid context: ${refusal.problems[0]}`);
    expect(refusal.message).not.toContain('\n');
  });

  it('names only what is still missing, the default support address included', () => {
    const { legalAddress: _address, supportEmail: _support, ...partial } = LEGAL_CONTEXT;
    const refusal = refusalOf(() => settings({ stage: 'production', ...MAIL, ...partial }));
    expect(refusal.problems).toHaveLength(1);
    expect(refusal.problems[0]).toMatch(
      /^prod needs the company its legal pages name: pass -c legalAddress=<registered office address> -c supportEmail=<the address customers write to> \(/,
    );
  });

  it('reads the entity on production, trimmed, with the support address', () => {
    const prod = settings({ stage: 'prod', ...MAIL, ...LEGAL_CONTEXT, legalName: ` ${ENTITY.name} ` });
    expect(prod.legalEntity).toEqual(ENTITY);
    expect(prod.supportEmail).toBe(LEGAL_CONTEXT.supportEmail);
  });

  it('leaves it out on dev (the Draft notice stays), and on prod with production=false', () => {
    expect(settings({}).legalEntity).toBeUndefined();
    expect(settings({ stage: 'prod', production: 'false' }).legalEntity).toBeUndefined();
    expect(settings({ stage: 'dev', ...LEGAL_CONTEXT }).legalEntity).toEqual(ENTITY);
  });

  it('refuses a part of it on any stage: the four keys go together', () => {
    const refusal = refusalOf(() =>
      settings({ legalName: ENTITY.name, legalJurisdiction: ENTITY.jurisdiction }),
    );
    expect(refusal.problems).toEqual([
      'legalName, legalAddress, legalRegistration and legalJurisdiction go together: add legalAddress, legalRegistration',
    ]);
  });

  it.each([
    [
      'a placeholder',
      { legalName: '[Company legal name]' },
      /^legalName "\[Company legal name\]": the real value, not a \[placeholder\]$/,
    ],
    [
      'a line break',
      { legalAddress: '1 Example Street\nLondon' },
      /^legalAddress "1 Example Street\nLondon": one line of text/,
    ],
    ['blank text', { legalRegistration: '   ' }, /^legalRegistration " {3}": a non-empty line of text$/],
    [
      'a support address that is not one',
      { supportEmail: 'support' },
      /^supportEmail "support": an e-mail address/,
    ],
  ])('refuses %s, naming the key', (_label, value, problem) => {
    const refusal = refusalOf(() => settings({ stage: 'prod', ...MAIL, ...LEGAL_CONTEXT, ...value }));
    expect(refusal.problems).toEqual([expect.stringMatching(problem)]);
  });

  it('reports nothing and no entity when no key is set outside production', () => {
    expect(legalEntityFromContext(() => undefined, false)).toEqual({ problems: [] });
  });
});

describe('config.json', () => {
  it('carries the entity the stack was given, and null without one (the pages then show the Draft notice)', () => {
    // Built, not synthesized: the value is on the construct at once, and a synth costs CI half a minute.
    const stackOf = (props: Partial<HeadshotStudioStackProps>, id: string) =>
      new HeadshotStudioStack(new App(), id, {
        stage: 'dev',
        stubFunctionCode: true,
        siteDir: NOWHERE,
        nativeLayerDir: NOWHERE,
        ...props,
      });
    const withEntity = stackOf(
      { legalEntity: ENTITY, supportEmail: LEGAL_CONTEXT.supportEmail },
      'Legal-dev',
    );
    expect(withEntity.site.runtimeConfig).toMatchObject({
      legalEntity: ENTITY,
      supportEmail: LEGAL_CONTEXT.supportEmail,
    });
    expect(stackOf({}, 'Draft-dev').site.runtimeConfig.legalEntity).toBeNull();
  });
});

describe('the prerendered legal pages (frontend/scripts/prerender-plugin.ts)', () => {
  const ENV = {
    LEGAL_NAME: ENTITY.name,
    LEGAL_ADDRESS: ENTITY.address,
    LEGAL_REGISTRATION: ENTITY.registration,
    LEGAL_JURISDICTION: ENTITY.jurisdiction,
  };

  it('the build reads the company from LEGAL_*: all four, or none for the Draft pages', () => {
    expect(legalEntityFromEnv({})).toBeNull();
    expect(legalEntityFromEnv({ ...ENV, LEGAL_NAME: ` ${ENTITY.name}` })).toEqual(ENTITY);
    expect(() => legalEntityFromEnv({ ...ENV, LEGAL_ADDRESS: undefined })).toThrow(
      /^LEGAL_NAME, LEGAL_ADDRESS, LEGAL_REGISTRATION, LEGAL_JURISDICTION go together: LEGAL_ADDRESS: missing$/,
    );
    expect(() => legalEntityFromEnv({ ...ENV, LEGAL_NAME: '[Company legal name]' })).toThrow(
      /LEGAL_NAME: the real value, not a \[placeholder\]/,
    );
  });

  /** A built site (index.html) whose pages were prerendered with `record`, or with no record at all. */
  function builtSite(record?: Parameters<typeof writePrerenderedWith>[1]): string {
    const dir = testTempDir('legal-site-');
    writeFileSync(join(dir, 'index.html'), '<!doctype html><div id="root"></div>');
    if (record) writePrerenderedWith(dir, record);
    return dir;
  }
  const expected = { legalEntity: ENTITY, supportEmail: LEGAL_CONTEXT.supportEmail };

  it('accepts a build prerendered with the same company and support address', () => {
    expect(prerenderedLegalProblem(builtSite(expected), expected)).toBeUndefined();
    expect(
      prerenderedLegalProblem(builtSite({ legalEntity: null, supportEmail: 'a@example.com' }), {
        supportEmail: 'a@example.com',
      }),
    ).toBeUndefined();
  });

  it('refuses Draft pages, another company, or no record, with the build command to run', () => {
    const command =
      "run `LEGAL_NAME='Example Portraits Ltd' LEGAL_ADDRESS='1 Example Street, London EC1A 1AA, United Kingdom' " +
      "LEGAL_REGISTRATION='Company number 01234567' LEGAL_JURISDICTION='England and Wales' " +
      'SUPPORT_EMAIL=support@example.com npm run build`';
    const draft = builtSite({ legalEntity: null, supportEmail: LEGAL_CONTEXT.supportEmail });
    expect(prerenderedLegalProblem(draft, expected)).toBe(
      `${command} (the legal pages in ${draft} were prerendered with the Draft placeholders and ` +
        `support@example.com, not this context's company and support address)`,
    );
    const other = builtSite({
      legalEntity: { ...ENTITY, name: 'Other Ltd' },
      supportEmail: 'support@example.com',
    });
    expect(prerenderedLegalProblem(other, expected)).toMatch(
      /prerendered with "Other Ltd" and support@example\.com/,
    );
    const otherAddress = builtSite({ ...expected, supportEmail: 'help@example.com' });
    expect(prerenderedLegalProblem(otherAddress, expected)).toMatch(
      /and help@example\.com, not this context's/,
    );
    expect(prerenderedLegalProblem(builtSite(), expected)).toMatch(
      new RegExp(
        `prerendered with no ${PRERENDERED_WITH_FILE.replace('.', '\\.')}, so the Draft placeholders`,
      ),
    );
  });

  it('a production synth of real code refuses such a build on one line (assertDeployable)', () => {
    const input = { siteDir: builtSite(), nativeLayerDir: NOWHERE, needsLayer: [], needsSite: true };
    expect(() => assertDeployable({ ...input, legal: expected })).toThrow(IncompleteBuildError);
    expect(() => assertDeployable({ ...input, legal: expected })).toThrow(
      /^Build first: run `LEGAL_NAME='Example Portraits Ltd' .* npm run build` \(the legal pages in [^\n]*\); see docs\/deploy\.md/,
    );
    // Outside production (no `legal`) a Draft build deploys as before.
    expect(() => assertDeployable(input)).not.toThrow();
  });
});
