/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-argument -- walking a parsed JSON document */
/** GET /openapi.yaml, GET /swagger and GET /docs: generated, complete, and served locally. */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGNING_EXAMPLE } from '../../../src/exchange/http/docs.js';
import { escapeHtml } from '../../../src/exchange/http/markdown.js';
import { ERRORS } from '../../../src/shared/api/errors.js';
import { DEFAULT_PRICE_BUDGET_PER_SECOND, GROUP_LIMITS } from '../../../src/shared/api/limits.js';
import { startSandbox, type Sandbox } from '../harness.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

const PUBLIC_ENDPOINTS = [
  'get /health',
  'get /time',
  'get /fixtures',
  'post /order/rfq',
  'post /order',
  'get /order',
  'get /orders',
  'get /orders/updates',
  'get /positions',
  'get /settlements',
  'get /docs',
  'get /swagger',
  'get /openapi.yaml',
];
const SIGNED = [
  'post /order/rfq',
  'post /order',
  'get /order',
  'get /orders',
  'get /orders/updates',
  'get /positions',
  'get /settlements',
];
const LIMITED = [...SIGNED, 'get /fixtures'];

let sb: Sandbox;
let doc: Json;
let yaml: string;
beforeAll(async () => {
  sb = await startSandbox();
  doc = (await sb.get<Json>('/swagger/json')).body;
  yaml = (await sb.get('/openapi.yaml')).text;
});
afterAll(async () => sb.close());

function operations(d: Json): Map<string, Json> {
  const out = new Map<string, Json>();
  for (const [path, item] of Object.entries(d.paths as Json)) {
    for (const [method, op] of Object.entries(item as Json))
      out.set(`${method} ${path}`, op as Json);
  }
  return out;
}

describe('GET /openapi.yaml', () => {
  it('is OpenAPI 3.1 YAML served as application/yaml', async () => {
    const res = await sb.get('/openapi.yaml');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/yaml/);
    expect(yaml.startsWith('openapi: 3.1.0\n')).toBe(true);
    // A minimal YAML check: every line is a key, a list item, a scalar continuation or blank,
    // indented by spaces only.
    for (const line of yaml.split('\n')) expect(line).not.toMatch(/^\t/);
  });

  it('lists the 13 public endpoints and nothing else', () => {
    expect([...operations(doc).keys()].sort()).toEqual([...PUBLIC_ENDPOINTS].sort());
    const yamlPaths = [...yaml.matchAll(/^ {2}(\/[^:\s]*):$/gm)].map((m) => m[1]);
    expect(new Set(yamlPaths)).toEqual(new Set(Object.keys(doc.paths as Json)));
  });

  it('never mentions the control API', () => {
    expect(yaml).not.toMatch(/\/sandbox/);
    expect(JSON.stringify(doc)).not.toMatch(/\/sandbox/);
  });

  it('documents the four signing headers on every signed endpoint', () => {
    const ops = operations(doc);
    for (const id of SIGNED) {
      const params = (ops.get(id)?.parameters ?? []) as Json[];
      const headers = params
        .filter((p) => p.in === 'header' && p.required)
        .map((p) => String(p.name).toLowerCase());
      expect(headers, id).toEqual(
        expect.arrayContaining(['x-api-key', 'x-timestamp', 'x-recv-window', 'x-signature']),
      );
    }
  });

  it('documents query parameters and request bodies from the shared schemas', () => {
    const ops = operations(doc);
    const names = (id: string) =>
      ((ops.get(id)?.parameters ?? []) as Json[])
        .filter((p) => p.in === 'query')
        .map((p) => p.name as string);
    expect(names('get /fixtures')).toEqual(
      expect.arrayContaining(['bettingOpen', 'limit', 'offset']),
    );
    expect(names('get /orders')).toEqual(
      expect.arrayContaining(['contractId', 'team', 'status', 'limit', 'offset']),
    );
    expect(names('get /order')).toEqual(expect.arrayContaining(['orderId', 'clientOrderId']));
    expect(names('get /orders/updates')).toEqual(['since']);
    expect(names('get /settlements')).toEqual(expect.arrayContaining(['type']));
    for (const id of ['post /order/rfq', 'post /order']) {
      const schema = ops.get(id)?.requestBody?.content?.['application/json']?.schema as Json;
      expect(Object.keys(schema.properties as Json), id).toEqual(
        expect.arrayContaining(['qty', 'marketUnit', 'legs']),
      );
    }
  });

  it('documents the success body and error bodies of every endpoint', () => {
    const ops = operations(doc);
    for (const [id, op] of ops) {
      const statuses = Object.keys(op.responses as Json);
      expect(
        statuses.some((s) => s.startsWith('2')),
        id,
      ).toBe(true);
      if (id === 'get /swagger') continue;
      for (const s of statuses.filter((x) => /^[45]/.test(x))) {
        const schema = op.responses[s].content?.['application/json']?.schema as Json;
        expect(schema?.$ref, `${id} ${s}`).toBe('#/components/schemas/ErrorBody');
      }
      expect(statuses, id).toEqual(expect.arrayContaining(['400', '429', '500']));
    }
    expect(ops.get('post /order')?.responses['202']?.content['application/json'].schema.$ref).toBe(
      '#/components/schemas/Order',
    );
    expect(ops.get('post /order')?.responses).toHaveProperty('501');
    expect(ops.get('get /order')?.responses).toHaveProperty('404');
    expect(doc.components.schemas.ErrorBody.required).toEqual(['code', 'msg']);
  });

  it('documents X-RateLimit-* on every limited endpoint and Retry-After on 429 and 503', () => {
    const ops = operations(doc);
    for (const id of LIMITED) {
      const responses = ops.get(id)?.responses as Json;
      for (const [status, r] of Object.entries(responses)) {
        expect(Object.keys((r as Json).headers ?? {}), `${id} ${status}`).toEqual(
          expect.arrayContaining(['X-RateLimit-Limit', 'X-RateLimit-Remaining']),
        );
      }
      expect(Object.keys(responses['429'].headers as Json)).toContain('Retry-After');
    }
  });
});

describe('GET /swagger', () => {
  it('serves Swagger UI whose page loads nothing from another host', async () => {
    const page = await sb.get('/swagger');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    const refs = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThan(3);
    for (const ref of refs) {
      expect(ref, ref).toMatch(/^\/swagger\//);
      const asset = await sb.get(ref);
      expect(asset.status, ref).toBe(200);
    }
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toMatch(/default-src 'self'/);
    expect(csp).not.toMatch(/https?:|\*/);
  });

  it('points the UI at the local document, with no validator badge or remote URL', async () => {
    const init = await sb.get('/swagger/static/swagger-initializer.js');
    expect(init.status).toBe(200);
    expect(init.text).toMatch(/resolveUrl\('\.\/json'\)/);
    expect(init.text).toMatch(/validatorUrl: null/);
    const code = init.text.replace(/\/\/.*$/gm, ''); // comments name a URL; they load nothing
    expect(code).not.toMatch(/https?:\/\//);
    for (const css of ['/swagger/static/swagger-ui.css', '/swagger/static/index.css']) {
      const sheet = await sb.get(css);
      expect(sheet.text).not.toMatch(/url\(\s*['"]?https?:|@import/);
    }
    const json = await sb.get<Json>('/swagger/json');
    expect(json.body.openapi).toBe('3.1.0');
  });
});

describe('GET /docs', () => {
  let html: string;
  beforeAll(async () => {
    const res = await sb.get('/docs');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    html = res.text;
  });

  /** The cells of one table row, as the page renders them. */
  const row = (...cells: (string | number)[]) =>
    `<tr>\n${cells.map((c) => `<td>${c}</td>`).join('\n')}\n</tr>`;

  it('explains signing with a worked example whose signatures an independent HMAC gives', () => {
    expect(html).toContain(
      '<h3 id="worked-example-computed-by-the-exchange-s-own-code">Worked example',
    );
    for (const header of ['X-Api-Key', 'X-Timestamp', 'X-Recv-Window', 'X-Signature'])
      expect(html).toContain(`<td>${header}</td>`);
    const ex = SIGNING_EXAMPLE;
    const post = `${ex.timestamp}${ex.apiKey}${ex.recvWindow}${ex.method}${ex.path}${ex.body}`;
    const get = `${ex.timestamp}${ex.apiKey}${ex.recvWindow}GET${ex.getPath}${ex.query}`;
    const hmac = (s: string) => createHmac('sha256', ex.secret).update(s).digest('hex');
    expect(html).toContain(`<pre><code>${escapeHtml(post)}\n</code></pre>`);
    expect(html).toContain(`<pre><code>${hmac(post)}\n</code></pre>`);
    expect(html).toContain(`<pre><code>${escapeHtml(get)}\n${hmac(get)}\n</code></pre>`);
  });

  it('gives the rate limits, the price-feed costs and the default budget', () => {
    for (const [group, spec] of Object.entries(GROUP_LIMITS)) {
      const at = html.indexOf(`<tr>\n<td>${group}</td>`);
      expect(at, group).toBeGreaterThan(-1);
      const keyedBy = group === 'fixtures' ? 'caller IP' : 'wallet';
      expect(html.slice(at, html.indexOf('</tr>', at) + 5)).toContain(
        `<td>${spec.perMinute}</td>\n<td>${spec.burst}</td>\n<td>${keyedBy}</td>\n</tr>`,
      );
    }
    expect(html).toContain(row('GET', '/positions', 'signed, read', 'positions', 28));
    expect(html).toContain(row('POST', '/order/rfq', 'signed, read', 'quotes', 2));
    expect(html).toContain(
      row('POST', '/order', 'signed, trade', 'orders', '1 with rfqId, 2 without'),
    );
    expect(html).toContain(
      `(default ${DEFAULT_PRICE_BUDGET_PER_SECOND}, set with <code>--price-budget N</code>)`,
    );
    expect(html).toContain('<code>Retry-After</code> in whole seconds');
    expect(html).toContain('<code>X-RateLimit-Remaining</code>');
  });

  it('states the choices the API leaves open, and every error code with its status', () => {
    expect(html).toContain(
      '<code>{&quot;status&quot;:&quot;ok&quot;,&quot;version&quot;:0}</code>',
    );
    expect(html).toContain('<code>{&quot;serverTime&quot;: &lt;ms since epoch&gt;}</code>');
    expect(html).toContain(
      'Any other path answers <strong>404</strong> with <code>{&quot;code&quot;:-1102,',
    );
    for (const e of ERRORS.values())
      expect(html).toContain(`<tr>\n<td>${e.code}</td>\n<td>${e.status}</td>\n<td>${e.name}</td>`);
    expect(html).toContain('<h2 id="pricing-model-and-the-exchange-s-other-choices">');
    expect(html).toContain('<h3 id="positions">Positions</h3>');
    expect(html).toContain('<h2 id="control-api-sandbox-only">Control API (sandbox only)</h2>');
  });

  it("says how a position's value, pnl and pnlPercent, a SELL's cost and a knockout's price are set", () => {
    const text = html
      .replace(/<[^>]+>/g, '')
      .replace(/\s+/g, ' ')
      .replace(/&#39;/g, "'");
    for (const words of [
      "value: what closing the whole position at estimatedClosingPrice would pay before the sell's fee",
      'pnl = value − collateral',
      'pnlPercent = (value − collateral) / collateral × 100, never below −100',
      'entryPrice: the fill prices averaged by contracts over the contracts still held',
      "The order's cost is the fee exactly as deducted, not rounded up to the cent",
      'a lot knocked out closes at its knockout',
    ])
      expect(text.includes(words), words).toBe(true);
  });

  it('is one page of our own markup: no script, and nothing from another host', () => {
    expect(html).not.toMatch(/<script|<iframe|<img/);
    expect(html).not.toMatch(/(src|href)="https?:/);
  });
});
