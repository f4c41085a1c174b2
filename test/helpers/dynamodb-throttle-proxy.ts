import { randomBytes } from 'node:crypto';
import { createServer, request, type IncomingMessage } from 'node:http';
import { closeServer, listen } from '../../infrastructure/local/support/http';

/*
 * A proxy in front of DynamoDB Local that answers chosen requests the way DynamoDB answers a throttled one, so the
 * real SDK client, its own retries and the workflow's Retry lists meet a throttle DynamoDB Local never produces.
 * Everything else is forwarded untouched.
 */

const THROTTLED_CAPACITY =
  'Throughput exceeds the current capacity of your table or index. DynamoDB is automatically scaling your table or index so please try again shortly. If exceptions persist, check if you have a hot key: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-partition-key-design.html';

/**
 * DynamoDB's answer to a request over the table's throughput: 400 with the exception's fully qualified `__type`
 * (the JSON protocol's error shape, "Error handling with DynamoDB",
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Programming.Errors.html) and DynamoDB's message
 * (as quoted in mifi/dynamodump#20 and quintilesims/layer0#229).
 */
export const PROVISIONED_THROUGHPUT_EXCEEDED = {
  status: 400,
  body: {
    __type: 'com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException',
    message:
      'The level of configured provisioned throughput for the table was exceeded. Consider increasing your provisioning level with the UpdateTable API.',
  },
} as const;

/**
 * The throttle of an on-demand table (ours is one): 400 `ThrottlingException` with DynamoDB's message (as quoted in
 * cowinapi/developer.cowin#151 and praetorian-inc/chariot-ui#684).
 */
export const THROTTLING = {
  status: 400,
  body: {
    __type: 'com.amazonaws.dynamodb.v20120810#ThrottlingException',
    message: THROTTLED_CAPACITY,
  },
} as const;

/**
 * A TransactWriteItems whose items DynamoDB throttled: 400 `TransactionCanceledException` with one reason per item,
 * `ThrottlingError` for each (the body shape of a real cancellation, erlcloud/erlcloud#607; the reason's message is
 * the throttle's).
 */
export function transactionThrottled(req: ProxiedRequest): ThrottleAnswer {
  const items = (JSON.parse(req.body) as { TransactItems?: unknown[] }).TransactItems ?? [];
  const codes = items.map(() => 'ThrottlingError');
  return {
    status: 400,
    body: {
      __type: 'com.amazonaws.dynamodb.v20120810#TransactionCanceledException',
      CancellationReasons: codes.map((Code) => ({ Code, Message: THROTTLED_CAPACITY })),
      Message: `Transaction cancelled, please refer cancellation reasons for specific reasons [${codes.join(', ')}]`,
    },
  };
}

/** A throttle answer: status and JSON body. */
export interface ThrottleAnswer {
  status: number;
  body: Record<string, unknown>;
}

/** One request as the proxy sees it: the operation (`UpdateItem`, from `X-Amz-Target`) and the JSON body text. */
export interface ProxiedRequest {
  operation: string;
  body: string;
}

/** A running proxy. */
export interface DynamoDbThrottleProxy {
  /** Put it in `AWS_ENDPOINT_URL_DYNAMODB`. */
  endpoint: string;
  /**
   * Throttles the next `times` requests `matches` selects, each answered `answer` (default
   * {@link PROVISIONED_THROUGHPUT_EXCEEDED}); replaces any earlier rule.
   */
  throttle(
    matches: (req: ProxiedRequest) => boolean,
    times: number,
    answer?: ThrottleAnswer | ((req: ProxiedRequest) => ThrottleAnswer),
  ): void;
  /** The requests throttled since start, in order. */
  readonly throttled: ProxiedRequest[];
  stop(): Promise<void>;
}

/** Starts the proxy on a free loopback port, forwarding to the DynamoDB endpoint `target` (`http://host:port`). */
export async function startDynamoDbThrottleProxy(target: string): Promise<DynamoDbThrottleProxy> {
  const upstream = new URL(target);
  let rule:
    | {
        matches: (req: ProxiedRequest) => boolean;
        left: number;
        answer: ThrottleAnswer | ((req: ProxiedRequest) => ThrottleAnswer);
      }
    | undefined;
  const throttled: ProxiedRequest[] = [];

  const readBody = async (req: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
    return Buffer.concat(chunks);
  };

  const server = createServer((req, res) => {
    void readBody(req).then((bytes) => {
      const operation = String(req.headers['x-amz-target'] ?? '').replace(/^DynamoDB_\d+\./, '');
      const seen = { operation, body: bytes.toString('utf8') };
      if (rule && rule.left > 0 && rule.matches(seen)) {
        rule.left--;
        throttled.push(seen);
        const answer = typeof rule.answer === 'function' ? rule.answer(seen) : rule.answer;
        const body = JSON.stringify(answer.body);
        res.writeHead(answer.status, {
          'content-type': 'application/x-amz-json-1.0',
          'content-length': Buffer.byteLength(body),
          'x-amzn-requestid': randomBytes(26).toString('hex').slice(0, 52).toUpperCase(),
        });
        res.end(body);
        return;
      }
      const forward = request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: upstream.host },
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      forward.on('error', (error) => res.destroy(error));
      forward.end(bytes);
    });
  });
  const endpoint = await listen(server, 0, '127.0.0.1');
  return {
    endpoint,
    throttle(matches, times, answer = PROVISIONED_THROUGHPUT_EXCEEDED) {
      rule = { matches, left: times, answer };
    },
    throttled,
    stop: () => closeServer(server),
  };
}
