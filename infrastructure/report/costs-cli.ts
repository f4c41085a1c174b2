/**
 * `npm run docs:costs [-- --check]`: writes docs/costs.md from the stack synthesized for `prod` in us-east-1 and the
 * price list (costs-doc.ts); with `--check`, writes nothing and exits 1 when the file differs from what it would write.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { REPO_ROOT } from '../constructs/naming';
import { COSTS_DOC, costsDocument } from './costs-doc';

async function main(argv: string[]): Promise<number> {
  const document = await costsDocument();
  const name = relative(REPO_ROOT, COSTS_DOC);
  if (argv.includes('--check')) {
    const same = readFileSync(COSTS_DOC, 'utf8') === document;
    console.log(same ? `${name} is up to date` : `${name} is stale: run npm run docs:costs`);
    return same ? 0 : 1;
  }
  writeFileSync(COSTS_DOC, document);
  console.log(`wrote ${name}`);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
