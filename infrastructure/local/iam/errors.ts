import { randomBytes, randomUUID } from 'node:crypto';
import type { IamDenial } from './caller';

/*
 * A denied call answered as the service answers it, on the wire, so the SDK's own deserializer makes the error the
 * handler sees (its name, `$metadata.httpStatusCode`, `$fault`), exactly as with a real refusal. Messages follow AWS's
 * shape, as quoted from real refusals in public issue threads:
 * - DynamoDB, 400 `AccessDeniedException`, body `{"__type":"com.amazon.coral.service#AccessDeniedException","Message":…}`
 *   (sebdah/dynamic-dynamodb#321) and "User: arn:aws:sts::<account>:assumed-role/<role>/<session> is not authorized to
 *   perform: dynamodb:Query on resource: arn:aws:dynamodb:…:table/<table> because no identity-based policy allows the
 *   dynamodb:Query action" (AntonShuvaev/intellij-dynamodb#29);
 * - S3, 403 `AccessDenied`, the resource ARN in quotes: `… s3:GetObject on resource: "arn:aws:s3:::bucket/key" because
 *   no identity-based policy allows the s3:GetObject action` (aws-ia/terraform-aws-bedrock#41); a resource policy's Deny
 *   reads `… with an explicit deny in a resource-based policy` (noobaa/noobaa-core#10060);
 * - SQS, `AccessDenied` with the action lower-cased: `… sqs:sendmessage on resource: arn:aws:sqs:… because no
 *   identity-based policy allows the sqs:sendmessage action` (aws/serverless-application-model#3633);
 * - Step Functions, 400 `AccessDeniedException` (`Status Code: 400; Error Code: AccessDeniedException`,
 *   aws-amplify/amplify-hosting#2597).
 */

/** What the SDK's deserializers read of an HTTP response (@smithy/protocol-http `HttpResponse`). */
export interface WireResponse {
  statusCode: number;
  reason?: string;
  headers: Record<string, string>;
  body: Uint8Array;
}

/** AWS's sentence for a denial (see the header for its sources). */
export function denialMessage(service: string, denial: IamDenial): string {
  const { request, principal, reason } = denial;
  const action = service === 'sqs' ? request.action.toLowerCase() : request.action;
  const resource = service === 's3' ? `"${request.resource}"` : request.resource;
  const why =
    reason === 'identity-deny'
      ? 'with an explicit deny in an identity-based policy'
      : reason === 'resource-deny'
        ? 'with an explicit deny in a resource-based policy'
        : `because no identity-based policy allows the ${action} action`;
  return `User: ${principal} is not authorized to perform: ${action} on resource: ${resource} ${why}`;
}

const json = (
  statusCode: number,
  contentType: string,
  body: object,
  headers: Record<string, string> = {},
) => ({
  statusCode,
  headers: { 'content-type': contentType, 'x-amzn-requestid': randomUUID(), ...headers },
  body: Buffer.from(JSON.stringify(body)),
});

const XML_ENTITIES: Record<string, string> = {
  '<': '&lt;',
  '>': '&gt;',
  '&': '&amp;',
  '"': '&quot;',
  "'": '&apos;',
};
const escapeXml = (text: string) => text.replace(/[<>&"']/g, (c) => XML_ENTITIES[c]!);

/**
 * The response `service` gives a call it refuses for `denial`.
 *
 * @param service the IAM service prefix (actions.ts `SERVICE_OF_CLIENT`)
 * @param method the request's HTTP method: a refused HEAD has no body, as S3 answers it
 */
export function deniedResponse(service: string, denial: IamDenial, method: string): WireResponse {
  const message = denialMessage(service, denial);
  switch (service) {
    case 's3': {
      const requestId = randomBytes(8).toString('hex').toUpperCase();
      const hostId = randomBytes(32).toString('base64');
      const xml =
        '<?xml version="1.0" encoding="UTF-8"?>\n' +
        `<Error><Code>AccessDenied</Code><Message>${escapeXml(message)}</Message>` +
        `<RequestId>${requestId}</RequestId><HostId>${hostId}</HostId></Error>`;
      return {
        statusCode: 403,
        reason: 'Forbidden',
        headers: { 'content-type': 'application/xml', 'x-amz-request-id': requestId, 'x-amz-id-2': hostId },
        body: method === 'HEAD' ? new Uint8Array() : Buffer.from(xml),
      };
    }
    case 'dynamodb':
      return json(400, 'application/x-amz-json-1.0', {
        __type: 'com.amazon.coral.service#AccessDeniedException',
        Message: message,
      });
    case 'states':
      return json(400, 'application/x-amz-json-1.0', {
        __type: 'com.amazon.coral.service#AccessDeniedException',
        message,
      });
    case 'sqs':
      // The JSON protocol with the query protocol's error code beside it (awsQueryCompatible).
      return json(
        403,
        'application/x-amz-json-1.0',
        { __type: 'com.amazon.coral.service#AccessDeniedException', message },
        { 'x-amzn-query-error': 'AccessDenied;Sender' },
      );
    case 'ses':
      return json(403, 'application/json', { message }, { 'x-amzn-errortype': 'AccessDeniedException' });
    default:
      // cognito-idp and firehose: AWS JSON 1.1.
      return json(400, 'application/x-amz-json-1.1', { __type: 'AccessDeniedException', message });
  }
}
