import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LocalStackError } from '../../infrastructure/local/support/errors';
import { PORT_VARIABLES, portsFromEnv } from '../../infrastructure/local/support/settings';
import { tokenLifetimeSeconds } from '../../infrastructure/local/parts/emulators';
import { withRouteFunctions } from '../../infrastructure/local/parts/functions-runtime';
import { handlerEnvironment, LOCAL_SIGNUP_BONUS_PEPPER } from '../../infrastructure/local/parts/handler-env';
import { createTeardown, openDataDir } from '../../infrastructure/local/parts/lifecycle';

const recordingLog = () => {
  const errors: string[] = [];
  return { errors, log: { info: () => undefined, error: (message: string) => void errors.push(message) } };
};

describe("the local stack's teardown", () => {
  it('stops the parts last-started first, goes on past a failing stop, and runs once', async () => {
    const stopped: string[] = [];
    const { errors, log } = recordingLog();
    let finished = 0;
    const teardown = createTeardown(log, () => finished++);
    teardown.add(async () => void stopped.push('dynamodb'));
    teardown.add(
      async () => {
        throw new Error('s3 would not stop');
      },
      async () => void stopped.push('cognito'),
    );
    teardown.add(async () => void stopped.push('gateway'));

    await teardown.run();
    await teardown.run();

    expect(stopped).toEqual(['gateway', 'cognito', 'dynamodb']);
    expect(errors).toEqual(['Error: s3 would not stop']);
    expect(finished).toBe(1);
  });
});

describe("the local stack's data directory", () => {
  const made: string[] = [];
  afterEach(() => made.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it('is a new temporary directory when none is given, removed when it closes', () => {
    const dataDir = openDataDir(undefined);
    made.push(dataDir.path);
    expect(dataDir.temporary).toBe(true);
    expect(existsSync(dataDir.path)).toBe(true);
    dataDir.close();
    expect(existsSync(dataDir.path)).toBe(false);
  });

  it('keeps a given directory, forgetting only the record of its child processes', () => {
    const parent = mkdtempSync(join(tmpdir(), 'stack-parts-'));
    made.push(parent);
    const dataDir = openDataDir(join(parent, 'data'));
    writeFileSync(join(dataDir.path, 'children.json'), '[]');
    writeFileSync(join(dataDir.path, 'stack-state.json'), '{}');
    dataDir.close();
    expect(dataDir.temporary).toBe(false);
    expect(existsSync(join(dataDir.path, 'children.json'))).toBe(false);
    expect(existsSync(join(dataDir.path, 'stack-state.json'))).toBe(true);
  });
});

describe("the local handlers' environment", () => {
  const base = {
    emulators: {
      dynamodbEndpoint: 'http://127.0.0.1:8000',
      s3Endpoint: 'http://127.0.0.1:4569',
      cognitoEndpoint: 'http://127.0.0.1:9229',
      pool: { userPoolId: 'local_pool', userPoolClientId: 'client' },
    },
    standIns: {
      env: { MAIL_FROM: 'from@stand-in', JOBS_QUEUE_URL: 'http://q' },
      sqs: { endpoint: 'http://sqs' },
    },
    lambdaUrl: 'http://127.0.0.1:3002',
    stepfunctionsUrl: 'http://127.0.0.1:8083',
    region: 'eu-west-1',
    siteOrigin: 'http://localhost:5173',
    dataDir: '/data',
  };

  it("lets the stack's endpoints win over the configured environment, and the stand-ins' over both", () => {
    const env = handlerEnvironment({
      ...base,
      configuredEnv: {
        AWS_ENDPOINT_URL_DYNAMODB: 'https://dynamodb.amazonaws.com',
        MAIL_FROM: 'from@dotenv',
        OPENAI_MODEL: 'gpt-image-1',
        UNSET: undefined,
      },
    });
    expect(env.AWS_ENDPOINT_URL_DYNAMODB).toBe('http://127.0.0.1:8000');
    expect(env.MAIL_FROM).toBe('from@stand-in');
    expect(env.OPENAI_MODEL).toBe('gpt-image-1');
    expect(env.JOBS_QUEUE_URL).toBe('http://q');
    expect(env.AWS_ENDPOINT_URL_SQS).toBe('http://sqs');
    expect(env.COGNITO_USER_POOL_ID).toBe('local_pool');
    expect('UNSET' in env).toBe(false);
  });

  it('keeps its local defaults only where nothing is configured', () => {
    const defaults = handlerEnvironment({ ...base, configuredEnv: undefined });
    expect(defaults.SIGNUP_BONUS_PEPPER).toBe(LOCAL_SIGNUP_BONUS_PEPPER);
    expect(defaults.POWERTOOLS_METRICS_DISABLED).toBe('true');
    expect(defaults.ANALYTICS_DIR).toBe(join('/data', 'analytics'));

    const configured = handlerEnvironment({
      ...base,
      configuredEnv: { SIGNUP_BONUS_PEPPER: 'p', POWERTOOLS_METRICS_DISABLED: 'false', ANALYTICS_DIR: '/a' },
    });
    expect(configured.SIGNUP_BONUS_PEPPER).toBe('p');
    expect(configured.POWERTOOLS_METRICS_DISABLED).toBe('false');
    expect(configured.ANALYTICS_DIR).toBe('/a');
  });
});

describe('the functions the local stack serves', () => {
  it("adds a function for a route handler the catalogue lacks, named by the catalogue's rule", () => {
    const functions = withRouteFunctions(
      [{ name: 'http-me', handler: 'http/me' }],
      [
        { method: 'GET', path: '/api/me', handler: 'http/me', auth: 'jwt' },
        { method: 'GET', path: '/api/echo', handler: 'http/echo', auth: 'public' },
        { method: 'POST', path: '/api/echo', handler: 'http/echo', auth: 'public' },
      ],
    );
    expect(functions).toEqual([
      { name: 'http-me', handler: 'http/me' },
      { name: 'http-echo', handler: 'http/echo', timeoutSeconds: 30 },
    ]);
  });
});

describe("the local pool's token lifetime", () => {
  it('is 15 minutes unless LOCAL_TOKEN_LIFETIME_SECONDS names whole seconds from 35 to 86400', () => {
    expect(tokenLifetimeSeconds(undefined)).toBe(900);
    expect(tokenLifetimeSeconds('')).toBe(900);
    expect(tokenLifetimeSeconds('60')).toBe(60);
    for (const bad of ['34', '86401', '1.5', 'soon'])
      expect(() => tokenLifetimeSeconds(bad)).toThrow(LocalStackError);
  });
});

describe("npm start's ports", () => {
  it("reads each part's variable, with the customary port where none is set, and refuses a non-port", () => {
    const ports = portsFromEnv({ PORT: '6000', SQS_PORT: '9999' });
    expect(ports.site).toBe(6000);
    expect(ports.sqs).toBe(9999);
    expect(ports.gateway).toBe(3001);
    expect(ports.dynamodb).toBe(8000);
    expect(Object.keys(ports).sort()).toEqual(Object.keys(PORT_VARIABLES).sort());
    expect(() => portsFromEnv({ GATEWAY_PORT: '70000' })).toThrow();
  });
});
