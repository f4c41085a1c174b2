import { isDeepStrictEqual } from 'node:util';
import {
  LEGAL_ENTITY_ENV,
  PRERENDERED_WITH_FILE,
  readPrerenderedWith,
  type PrerenderedWith,
} from '../../frontend/scripts/prerendered-with';
import {
  LEGAL_ENTITY_FIELDS,
  legalEntityTextProblem,
  type LegalEntity,
} from '../../functions/domain/legal-entity';

/**
 * The CDK context key of each field of the legal entity (functions/domain/legal-entity.ts), with what to pass, as the
 * refusal says it. The support address is the existing `supportEmail` key.
 */
export const LEGAL_ENTITY_CONTEXT = {
  name: { key: 'legalName', hint: '<registered company name>' },
  address: { key: 'legalAddress', hint: '<registered office address>' },
  registration: { key: 'legalRegistration', hint: '<company number>' },
  jurisdiction: { key: 'legalJurisdiction', hint: '<country or state of the governing law>' },
} as const satisfies Record<keyof LegalEntity, { key: string; hint: string }>;

/**
 * Reads the legal entity from the context (docs/configuration.md, CDK context; issue 35 item 2). The four `legal*`
 * keys go together. On production they are required, and so is an explicit `supportEmail`: the legal pages name the
 * company and the address to write to, and a production site must not show the draft's placeholders. Outside
 * production an absent entity keeps the pages' Draft notice.
 *
 * @param get the context's value of a key, undefined when unset or empty
 * @param production whether the stage is production (settings.ts, `productionOf`)
 * @returns the entity when every key is set and valid, and the problems to report (the caller refuses with them,
 *   `InvalidContextError`); the production refusal is ONE problem that names every key still to pass
 */
export function legalEntityFromContext(
  get: (key: string) => string | undefined,
  production: boolean,
): { legalEntity?: LegalEntity; problems: string[] } {
  const problems: string[] = [];
  const entity: Partial<LegalEntity> = {};
  const missing: (keyof LegalEntity)[] = [];
  for (const field of LEGAL_ENTITY_FIELDS) {
    const { key } = LEGAL_ENTITY_CONTEXT[field];
    const value = get(key);
    if (value === undefined) {
      missing.push(field);
      continue;
    }
    const problem = legalEntityTextProblem(value);
    if (problem) problems.push(`${key} "${value}": ${problem}`);
    else entity[field] = value.trim();
  }
  const noSupportEmail = production && get('supportEmail') === undefined;
  if (production && (missing.length > 0 || noSupportEmail)) {
    const pass = missing.map(
      (field) => `-c ${LEGAL_ENTITY_CONTEXT[field].key}=${LEGAL_ENTITY_CONTEXT[field].hint}`,
    );
    if (noSupportEmail) pass.push('-c supportEmail=<the address customers write to>');
    problems.push(
      `prod needs the company its legal pages name: pass ${pass.join(' ')} (docs/deploy.md, "A production stage")`,
    );
  } else if (missing.length > 0 && missing.length < LEGAL_ENTITY_FIELDS.length) {
    const keys = LEGAL_ENTITY_FIELDS.map((field) => LEGAL_ENTITY_CONTEXT[field].key);
    problems.push(
      `${keys.slice(0, -1).join(', ')} and ${keys.at(-1)} go together: add ${missing.map((field) => LEGAL_ENTITY_CONTEXT[field].key).join(', ')}`,
    );
  }
  if (missing.length > 0 || problems.length > 0) return { problems };
  return { legalEntity: entity as LegalEntity, problems };
}

/** `value` quoted for a POSIX shell, so the command a refusal prints can be pasted as it is. */
function shellQuoted(value: string): string {
  return /^[\w@.,/:+-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}

/**
 * Why the built site cannot be deployed to production with this context: its prerendered legal pages and footers
 * (frontend/scripts/prerender-plugin.ts) were rendered with another company or support address than the one
 * `/config.json` will carry, so the pages would show the Draft notice, or another company, until the app's script
 * re-renders them (and to every reader without it). Compared with the record the build writes beside the pages
 * (`prerendered-with.json`); a build without one rendered the Draft pages.
 *
 * @param siteDir the built site (`dist/site`), which exists
 * @param expected the context's company (`undefined`: none) and support address
 * @returns the step that fixes it (a `npm run build` with the right variables), or undefined when the build matches
 */
export function prerenderedLegalProblem(
  siteDir: string,
  expected: { legalEntity?: LegalEntity; supportEmail: string },
): string | undefined {
  const wanted: PrerenderedWith = {
    legalEntity: expected.legalEntity ?? null,
    supportEmail: expected.supportEmail,
  };
  const built = readPrerenderedWith(siteDir);
  if (built && isDeepStrictEqual(built, wanted)) return undefined;
  const variables = LEGAL_ENTITY_FIELDS.flatMap((field) =>
    wanted.legalEntity ? [`${LEGAL_ENTITY_ENV[field]}=${shellQuoted(wanted.legalEntity[field])}`] : [],
  );
  variables.push(`SUPPORT_EMAIL=${shellQuoted(wanted.supportEmail)}`);
  const was = built
    ? `${built.legalEntity ? `"${built.legalEntity.name}"` : 'the Draft placeholders'} and ${built.supportEmail}`
    : `no ${PRERENDERED_WITH_FILE}, so the Draft placeholders`;
  return `run \`${variables.join(' ')} npm run build\` (the legal pages in ${siteDir} were prerendered with ${was}, not this context's company and support address)`;
}
