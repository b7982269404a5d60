/** The Markdown of GET /docs becomes HTML that keeps its structure and lets no markup through. */
import { describe, expect, it } from 'vitest';
import { htmlPage, renderMarkdown, slug } from '../../../src/exchange/http/markdown.js';

describe('renderMarkdown', () => {
  it('gives every heading an id made from its text', async () => {
    expect(await renderMarkdown('## Rate limits\n\n### Worked example (at start-up)')).toBe(
      '<h2 id="rate-limits">Rate limits</h2>\n' +
        '<h3 id="worked-example-at-start-up">Worked example (at start-up)</h3>\n',
    );
    expect(slug('Error codes and HTTP statuses')).toBe('error-codes-and-http-statuses');
  });

  it('renders a table with a head row and one row per line', async () => {
    const html = await renderMarkdown(
      '| Group | Burst |\n|---|---|\n| quotes | 10 |\n| orders | 10 |',
    );
    expect(html).toContain('<th>Group</th>');
    expect(html).toContain('<th>Burst</th>');
    expect(html).toContain('<tr>\n<td>quotes</td>\n<td>10</td>\n</tr>');
    expect(html).toContain('<tr>\n<td>orders</td>\n<td>10</td>\n</tr>');
  });

  it('keeps fenced code byte for byte, escaped', async () => {
    const body = '{"legs":[{"outcome":"ARS"}],"qty":"10"}';
    expect(await renderMarkdown(`\`\`\`\n${body}\n\`\`\``)).toBe(
      '<pre><code>{&quot;legs&quot;:[{&quot;outcome&quot;:&quot;ARS&quot;}],&quot;qty&quot;:&quot;10&quot;}\n</code></pre>\n',
    );
  });

  it('renders lists, inline code, bold and nested items', async () => {
    const html = await renderMarkdown(
      '1. First `X-Api-Key`\n2. Then **401 -1022**\n\n- outer:\n  - inner',
    );
    expect(html).toContain(
      '<ol>\n<li>First <code>X-Api-Key</code></li>\n<li>Then <strong>401 -1022</strong></li>\n</ol>',
    );
    expect(html).toContain('<li>outer:<ul>\n<li>inner</li>\n</ul>');
  });

  it('shows raw HTML as text instead of passing it through', async () => {
    const html = await renderMarkdown(
      '<script>alert(1)</script>\n\nA <img src=x onerror=alert(1)> and <b>bold</b>.',
    );
    expect(html).not.toMatch(/<(script|img|b)[\s>]/);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  it('escapes markup inside inline code', async () => {
    expect(await renderMarkdown('`{"serverTime": <ms since epoch>}`')).toBe(
      '<p><code>{&quot;serverTime&quot;: &lt;ms since epoch&gt;}</code></p>\n',
    );
  });

  it('links only to local paths, anchors and http(s); other links become their text', async () => {
    expect(await renderMarkdown('[/openapi.yaml](/openapi.yaml)')).toBe(
      '<p><a href="/openapi.yaml">/openapi.yaml</a></p>\n',
    );
    expect(await renderMarkdown('[limits](#rate-limits)')).toBe(
      '<p><a href="#rate-limits">limits</a></p>\n',
    );
    expect(await renderMarkdown('[click](javascript:alert(1))')).toBe('<p>click</p>\n');
    expect(await renderMarkdown('[x](data:text/html,hi)')).toBe('<p>x</p>\n');
    expect(await renderMarkdown('<javascript:alert(1)>')).toBe('<p>javascript:alert(1)</p>\n');
  });

  it('shows an image as its alt text, so the page loads nothing', async () => {
    expect(await renderMarkdown('![a chart](https://example.com/c.png)')).toBe('<p>a chart</p>\n');
  });
});

describe('htmlPage', () => {
  it('wraps the body in a page whose title is escaped', () => {
    const page = htmlPage('A <b> & "c"', '<p>body</p>');
    expect(page.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(page).toContain('<title>A &lt;b&gt; &amp; &quot;c&quot;</title>');
    expect(page).toContain('<body>\n<p>body</p>\n</body>');
  });
});
