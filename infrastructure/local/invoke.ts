/**
 * `npm run invoke -- <handler> <event.json>`: runs ONE Lambda handler in this process, with a sample event, against
 * the stack `npm start` is running (its emulators' endpoints are read from `.local/handler-env.json`). No Docker.
 *
 *   npm run invoke -- http/packs test/events/packs.json
 *   npm run invoke -- cognito-post-confirmation test/events/cognito-post-confirmation.json
 *
 * `<handler>` is a module under functions/ (`http/me`) or a function name from the catalogue
 * (`functions/catalogue.ts`). Prints the result as JSON; exits 1 when the handler fails.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  createLambdaRuntime,
  LambdaFunctionError,
  localFunctions,
  type LocalFunction,
} from './stand-ins/lambda/runtime';
import { REPO_ROOT } from './support/paths';
import { defaultFunctionName } from '../../functions/catalogue';

const [target, eventFile] = process.argv.slice(2);
if (!target || !eventFile) {
  console.error('Usage: npm run invoke -- <handler module or function name> <event.json>');
  process.exit(2);
}
const envFile = join(REPO_ROOT, '.local', 'handler-env.json');
if (!existsSync(envFile)) {
  console.error(
    'The local stack is not running: start it with `npm start` in another terminal, then try again.',
  );
  process.exit(1);
}
Object.assign(process.env, JSON.parse(readFileSync(envFile, 'utf8')) as Record<string, string>);

const handler = target.replace(/^functions\//, '').replace(/\.ts$/, '');
const fn: LocalFunction = localFunctions.find((f) => f.name === target || f.handler === handler) ?? {
  name: defaultFunctionName(handler),
  handler,
  timeoutSeconds: 30,
};
if (!existsSync(join(REPO_ROOT, 'functions', `${fn.handler}.ts`))) {
  console.error(
    `No handler functions/${fn.handler}.ts (and no function named "${target}" in the catalogue).`,
  );
  process.exit(2);
}
const event: unknown = JSON.parse(readFileSync(resolve(eventFile), 'utf8'));
const started = Date.now();
try {
  const result = await createLambdaRuntime([fn]).invoke(fn.name, event);
  console.log(JSON.stringify(result, null, 2));
  console.error(`${fn.name}: ok in ${Date.now() - started} ms`);
  process.exit(0);
} catch (error) {
  if (error instanceof LambdaFunctionError) console.error(JSON.stringify(error.payload, null, 2));
  else console.error(error);
  process.exit(1);
}
