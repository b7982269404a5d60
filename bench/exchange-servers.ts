/**
 * The reference servers of `npm run bench:exchange`, each run in its own child process:
 *
 *   --serve-bare      a Fastify hello-world: GET / answers {"hello":"world"}
 *   --serve-ceiling   the floor cost of a signed quote in Fastify: POST /order/rfq reads the raw
 *                     body, checks its HMAC-SHA256 signature like the exchange (docs/api.md 5)
 *                     with the secret given in BENCH_SECRET, parses the JSON and answers a small
 *                     object. No replay cache, no validation, no quote.
 *
 * Each prints {"event":"listening","url":...} on standard output once it listens, like the CLI.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SERVE_BARE = '--serve-bare';
export const SERVE_CEILING = '--serve-ceiling';

async function listen(app: FastifyInstance): Promise<void> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  process.stdout.write(
    `${JSON.stringify({ event: 'listening', url: `http://127.0.0.1:${port}` })}\n`,
  );
  process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
}

export async function serveBare(): Promise<void> {
  const app = Fastify({ logger: false });
  app.get('/', () => ({ hello: 'world' }));
  await listen(app);
}

export async function serveCeiling(secret: string): Promise<void> {
  const app = Fastify({ logger: false });
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => {
    done(null, body);
  });
  app.post('/order/rfq', (request, reply) => {
    const h = request.headers;
    const raw = request.body as Buffer;
    const prefix = `${String(h['x-timestamp'])}${String(h['x-api-key'])}${String(h['x-recv-window'])}POST/order/rfq`;
    const expected = createHmac('sha256', secret).update(prefix, 'latin1').update(raw).digest();
    const signature = h['x-signature'];
    if (
      typeof signature !== 'string' ||
      signature.length !== 64 ||
      !timingSafeEqual(Buffer.from(signature, 'hex'), expected)
    ) {
      reply.code(401);
      return { code: -1022, msg: 'bad signature' };
    }
    const body = JSON.parse(raw.toString('utf8')) as { legs: unknown[] };
    return { ok: true, legs: body.legs.length };
  });
  await listen(app);
}
