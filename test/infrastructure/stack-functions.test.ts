import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Match } from 'aws-cdk-lib/assertions';
import { routes } from '../../functions/http/routes';
import { tableActions } from '../../infrastructure/constructs/grants';
import { catalogue, deployedFunctions, FUNCTION_DEFAULTS } from '../../functions/catalogue';
import { pascalCase } from '../../infrastructure/constructs/naming';
import { GENERATION_ASL } from '../../infrastructure/stack';
import { appFunctions, devStack, roleStatements, samIdOfHandler } from './helpers';

const routeHandlers = [...new Set(routes.map((r) => r.handler))];
describe('HeadshotStudioStack (dev)', () => {
  const { template } = devStack();

  describe('Functions', () => {
    it('deploys one function per catalogue entry that is not localOnly, route handlers included', () => {
      const ids = [...appFunctions(template).keys()].sort();
      expect(ids).toEqual(deployedFunctions.map((f) => pascalCase(f.name)).sort());
      for (const handler of routeHandlers) expect(ids).toContain(samIdOfHandler(handler));
      for (const local of catalogue.filter((f) => f.localOnly)) {
        expect(ids).not.toContain(pascalCase(local.name));
      }
    });

    it('runs every function on Node.js 24 / arm64 with X-Ray, source maps and its own log group', () => {
      for (const [id, { resource }] of appFunctions(template)) {
        expect(resource.Properties, id).toMatchObject({
          Runtime: 'nodejs24.x',
          Architectures: ['arm64'],
          TracingConfig: { Mode: 'Active' },
          Environment: { Variables: expect.objectContaining({ NODE_OPTIONS: '--enable-source-maps' }) },
          LoggingConfig: { LogGroup: { Ref: expect.stringMatching(/Logs/) } },
        });
      }
      template.allResourcesProperties('AWS::Logs::LogGroup', { RetentionInDays: Match.anyValue() });
    });

    it('takes timeout and memory from the catalogue (the kind’s defaults unless an entry sets its own)', () => {
      const fns = appFunctions(template);
      for (const entry of deployedFunctions) {
        expect(fns.get(pascalCase(entry.name))!.resource.Properties, entry.name).toMatchObject({
          Timeout: entry.timeoutSeconds,
          MemorySize: entry.memorySize,
        });
      }
      for (const handler of routeHandlers) {
        expect(fns.get(samIdOfHandler(handler))!.resource.Properties).toMatchObject({
          Timeout: FUNCTION_DEFAULTS.http.timeoutSeconds,
        });
      }
      // Every task that calls the image provider runs for minutes, never the API's 30 s.
      for (const [id, { resource }] of fns) {
        if (/Generate/.test(id))
          expect(resource.Properties!.Timeout as number, id).toBeGreaterThanOrEqual(120);
      }
    });

    it('gives every function the handler configuration, and secrets only as ARNs', () => {
      for (const [id, { resource }] of appFunctions(template)) {
        const env = (resource.Properties!.Environment as { Variables: Record<string, unknown> }).Variables;
        for (const name of [
          'TABLE_NAME',
          'UPLOADS_BUCKET',
          'RESULTS_BUCKET',
          'SITE_ORIGIN',
          'SUPPORT_EMAIL',
          'LOG_LEVEL',
        ]) {
          expect(env, `${id} ${name}`).toHaveProperty(name);
        }
        for (const plain of [
          'STRIPE_SECRET_KEY',
          'STRIPE_WEBHOOK_SECRET',
          'OPENAI_API_KEY',
          'SIGNUP_BONUS_PEPPER',
        ]) {
          expect(env, id).not.toHaveProperty(plain);
        }
      }
    });

    it('grants least privilege: public handlers nothing, no Scan, S3 only under uploads/, results/, work/ and partial/', () => {
      const fns = appFunctions(template);
      for (const handler of routeHandlers) {
        const auths = new Set(routes.filter((r) => r.handler === handler).map((r) => r.auth));
        if (auths.size !== 1 || !auths.has('public')) continue;
        const actions = roleStatements(template, fns.get(samIdOfHandler(handler))!.logicalId).flatMap(
          (s) => s.Action,
        );
        // The analytics route counts requests per IP in the table and puts records into its stream: nothing else.
        // A team invitation's preview reads its link and team (docs/teams.md "Invitations"): reads only.
        const allowed =
          handler === 'http/analytics-events'
            ? /^(logs|xray|dynamodb|firehose):/
            : handler === 'http/get-invite'
              ? /^(logs|xray|dynamodb:(GetItem|BatchGetItem|Query))/
              : /^(logs|xray):/;
        expect(
          actions.filter((a) => !allowed.test(a)),
          handler,
        ).toEqual([]);
      }
      for (const [id, { logicalId }] of fns) {
        for (const statement of roleStatements(template, logicalId)) {
          expect(statement.Action, id).not.toContain('dynamodb:Scan');
          expect(
            statement.Action.some((a) => a === '*' || a.endsWith(':*')),
            id,
          ).toBe(false);
          if (statement.Action.some((a) => /^s3:(Get|Put|Delete)Object$/.test(a))) {
            for (const resource of statement.Resource) {
              expect(JSON.stringify(resource), id).toMatch(/\/(uploads|results|work|partial)\/\*"\]\]\}$/);
            }
          }
        }
      }
    });

    it('lets only the declared functions start (the state machine) or describe (its executions)', () => {
      if (!existsSync(GENERATION_ASL)) return;
      const fns = appFunctions(template);
      const callers = (action: string) =>
        [...fns]
          .filter(([, { logicalId }]) =>
            roleStatements(template, logicalId).some((s) => s.Action.includes(action)),
          )
          .map(([id]) => id)
          .sort();
      expect(callers('states:StartExecution')).toEqual([
        'HttpCreateGeneration',
        'HttpEditHeadshot',
        'HttpRegenerateHeadshot',
      ]);
      expect(callers('states:DescribeExecution')).toEqual(['HttpGetGeneration']);
      for (const id of ['HttpCreateGeneration', 'HttpGetGeneration']) {
        const { logicalId, resource } = fns.get(id)!;
        const env = (resource.Properties!.Environment as { Variables: Record<string, unknown> }).Variables;
        expect(env.STATE_MACHINE_ARN).toEqual({ Ref: expect.stringMatching(/^WorkflowStateMachine/) });
        for (const statement of roleStatements(template, logicalId)) {
          if (statement.Action.includes('states:StartExecution')) {
            expect(statement.Resource).toEqual([{ Ref: expect.stringMatching(/^WorkflowStateMachine/) }]);
          }
        }
      }
    });

    it('narrows each role to its declaration: a read-only handler writes nothing, and only deleters delete', () => {
      const fns = appFunctions(template);
      const actionsOf = (id: string) =>
        roleStatements(template, fns.get(id)!.logicalId).flatMap((s) => s.Action);
      const download = actionsOf('HttpDownloadHeadshot').filter((a) => !/^(logs|xray):/.test(a));
      expect(download.sort()).toEqual(
        ['dynamodb:BatchGetItem', 'dynamodb:GetItem', 'dynamodb:Query', 's3:GetObject'].sort(),
      );
      const holders = (action: string) =>
        [...fns.keys()].filter((id) => actionsOf(id).includes(action)).sort();
      expect(holders('dynamodb:DeleteItem')).toEqual(
        [
          'GenerationReleaseProviderSlot',
          'GenerationSweeper',
          'HttpDeleteAccount',
          // The wizard's draft: discarded, or saved empty.
          'HttpDeleteDraft',
          'HttpDeleteHeadshot',
          // One version of a headshot (issue 36).
          'HttpDeleteHeadshotVersion',
          'HttpDeleteMyData',
          'HttpSaveDraft',
          // Leaving or removal from a team: "my teams" and the member's shared headshots; unsharing (docs/teams.md).
          'HttpTeamMembership',
          'ProviderDispatcher',
          'ProviderLeaseReaper',
        ].sort(),
      );
      expect(holders('s3:DeleteObject')).toEqual(
        [
          // A streaming edit's older partial images, under partial/ only (issue 36).
          'GenerationCallProvider',
          'GenerationFinishHeadshot',
          // Headshots past their retention (docs/decisions/011-retention.md).
          'GenerationSweeper',
          'HttpDeleteAccount',
          'HttpDeleteHeadshot',
          'HttpDeleteHeadshotVersion',
          'HttpDeleteMyData',
        ].sort(),
      );
      expect(holders('s3:PutObject')).toEqual(
        [
          'GenerationCallProvider',
          'GenerationFinishHeadshot',
          'GenerationPrepareReferences',
          'HttpCreateUploads',
        ].sort(),
      );
      expect(holders('cognito-idp:AdminDeleteUser')).toEqual(['HttpDeleteAccount']);
      // Every role holds exactly the actions its catalogue entry declares (plus its logs and traces).
      for (const entry of deployedFunctions) {
        const id = pascalCase(entry.name);
        const table = actionsOf(id).filter((a) => a.startsWith('dynamodb:'));
        expect(new Set(table), id).toEqual(new Set(tableActions(entry.access.table)));
      }
    });

    it('gives the Stripe secrets only to code that imports stripe, the OpenAI key only to code that imports openai, the bonus pepper only to code that creates users', () => {
      const secretReaders = new Map<string, string[]>();
      for (const [id, { logicalId, resource }] of appFunctions(template)) {
        const env = (resource.Properties!.Environment as { Variables: Record<string, unknown> }).Variables;
        const reads = roleStatements(template, logicalId)
          .filter((s) => s.Action.includes('secretsmanager:GetSecretValue'))
          .flatMap((s) => s.Resource.map((r) => (r as { Ref: string }).Ref));
        secretReaders.set(id, reads);
        expect(reads.length > 0, id).toBe(
          ['STRIPE_SECRET_ARN', 'OPENAI_API_KEY_SECRET_ARN', 'SIGNUP_BONUS_PEPPER_SECRET_ARN'].some(
            (k) => k in env,
          ),
        );
        if (reads.length > 0) expect(resource.Properties!.Layers, id).toBeDefined();
        if ('STRIPE_SECRET_ARN' in env) {
          expect(env).toHaveProperty('STRIPE_WEBHOOK_SECRET_ARN');
          expect(resource.Properties!.Layers, id).toBeDefined(); // the Parameters and Secrets extension
        }
      }
      expect(secretReaders.get('WebhooksStripe')?.length ?? 3).toBe(3);
      // The sign-up bonus pepper: only the functions that create users, and nothing else for them.
      const pepper = template.findResources('AWS::SecretsManager::Secret', {
        Properties: { GenerateSecretString: {} },
      });
      const pepperId = Object.keys(pepper).find((id) => id.includes('SignupBonusPepper'))!;
      expect(pepperId).toBeDefined();
      expect(pepper[pepperId]!.Properties.SecretString).toBeUndefined();
      const pepperReaders = [...secretReaders]
        .filter(([, reads]) => reads.includes(pepperId))
        .map(([id]) => id);
      expect(pepperReaders.sort()).toEqual(
        [
          'CognitoPostConfirmation',
          'HttpCreateGeneration',
          // An edit starts a generation as a regeneration does (issue 36).
          'HttpEditHeadshot',
          'HttpGetCheckoutSession',
          'HttpMe',
          'HttpRegenerateHeadshot',
          'WebhooksStripe',
        ].sort(),
      );
      expect(secretReaders.get('HttpMe')).toEqual([pepperId]);
      expect(secretReaders.get('CognitoPostConfirmation')).toEqual([pepperId]);
    });

    it('wires the post-confirmation trigger to the user pool', () => {
      const fns = appFunctions(template);
      template.hasResourceProperties('AWS::Cognito::UserPool', {
        LambdaConfig: {
          PostConfirmation: { 'Fn::GetAtt': [fns.get('CognitoPostConfirmation')!.logicalId, 'Arn'] },
        },
      });
      template.hasResourceProperties('AWS::Lambda::Permission', {
        Action: 'lambda:InvokeFunction',
        Principal: 'cognito-idp.amazonaws.com',
        FunctionName: { 'Fn::GetAtt': [fns.get('CognitoPostConfirmation')!.logicalId, 'Arn'] },
      });
    });
  });
});
