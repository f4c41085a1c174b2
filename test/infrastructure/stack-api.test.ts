import { describe, expect, it } from 'vitest';
import { Match } from 'aws-cdk-lib/assertions';
import { routes } from '../../functions/http/routes';
import { appFunctions, devStack, getAttTarget, samIdOfHandler } from './helpers';

describe('HeadshotStudioStack (dev)', () => {
  const { template } = devStack();

  describe('Api', () => {
    it('has exactly one route per route-table row, integrated with that row’s handler function', () => {
      const deployed = Object.values(template.findResources('AWS::ApiGatewayV2::Route')).map(
        (r) => (r.Properties as { RouteKey: string }).RouteKey,
      );
      expect(deployed.sort()).toEqual(routes.map((r) => `${r.method} ${r.path}`).sort());

      const fns = appFunctions(template);
      const integrations = template.findResources('AWS::ApiGatewayV2::Integration');
      for (const route of routes) {
        const [, resource] = Object.entries(template.findResources('AWS::ApiGatewayV2::Route')).find(
          ([, r]) => (r.Properties as { RouteKey: string }).RouteKey === `${route.method} ${route.path}`,
        )!;
        const target = (resource.Properties as { Target: { 'Fn::Join': [string, unknown[]] } }).Target;
        const integrationId = (target['Fn::Join'][1][1] as { Ref: string }).Ref;
        const integration = integrations[integrationId]!.Properties as Record<string, unknown>;
        expect(integration).toMatchObject({ IntegrationType: 'AWS_PROXY', PayloadFormatVersion: '2.0' });
        expect(getAttTarget(integration.IntegrationUri)).toBe(
          fns.get(samIdOfHandler(route.handler))!.logicalId,
        );
      }
    });

    it('puts the Cognito JWT authorizer on every jwt route and none on public or Stripe-signature routes', () => {
      const authorizers = template.findResources('AWS::ApiGatewayV2::Authorizer');
      expect(Object.keys(authorizers)).toHaveLength(1);
      const [authorizerId] = Object.keys(authorizers);
      template.hasResourceProperties('AWS::ApiGatewayV2::Authorizer', {
        AuthorizerType: 'JWT',
        IdentitySource: ['$request.header.Authorization'],
        JwtConfiguration: {
          Audience: [{ Ref: Match.stringLikeRegexp('^AuthUserPoolWebClient') }],
          Issuer: {
            'Fn::Join': ['', Match.arrayWith([{ Ref: Match.stringLikeRegexp('^AuthUserPool') }])],
          },
        },
      });
      const byKey = new Map(
        Object.values(template.findResources('AWS::ApiGatewayV2::Route')).map((r) => {
          const p = r.Properties as {
            RouteKey: string;
            AuthorizationType: string;
            AuthorizerId?: { Ref: string };
          };
          return [p.RouteKey, p];
        }),
      );
      for (const route of routes) {
        const deployed = byKey.get(`${route.method} ${route.path}`)!;
        if (route.auth === 'jwt') {
          expect(deployed, `${route.method} ${route.path}`).toMatchObject({
            AuthorizationType: 'JWT',
            AuthorizerId: { Ref: authorizerId },
          });
        } else {
          expect(deployed.AuthorizationType, `${route.method} ${route.path}`).toBe('NONE');
          expect(deployed.AuthorizerId).toBeUndefined();
        }
      }
      // The Stripe webhook must stay reachable without a JWT (Stripe signs it instead).
      const webhook = routes.find((r) => r.auth === 'stripe-signature');
      if (webhook) expect(byKey.get(`${webhook.method} ${webhook.path}`)!.AuthorizationType).toBe('NONE');
    });

    it('has one auto-deployed $default stage with throttling and JSON access logs', () => {
      template.resourceCountIs('AWS::ApiGatewayV2::Stage', 1);
      template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
        StageName: '$default',
        AutoDeploy: true,
        DefaultRouteSettings: {
          ThrottlingRateLimit: Match.anyValue(),
          ThrottlingBurstLimit: Match.anyValue(),
        },
        AccessLogSettings: {
          DestinationArn: { 'Fn::GetAtt': [Match.stringLikeRegexp('^ApiAccessLogs'), 'Arn'] },
          Format: Match.stringLikeRegexp('\\$context\\.requestId'),
        },
      });
      // Without a custom domain the SPA calls /api same-origin through CloudFront: no cross-origin caller at all.
      template.hasResourceProperties('AWS::ApiGatewayV2::Api', { CorsConfiguration: Match.absent() });
    });
  });
});
