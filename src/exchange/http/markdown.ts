/**
 * Markdown to HTML for GET /docs, by `marked` (GitHub-flavoured: tables, fenced code, lists).
 * The page is built from our own text, but it is served to browsers, so the renderer stays
 * closed to markup: raw HTML in the source is shown as text, links go only to this server's
 * paths, in-page anchors or http(s), and images are shown as their alt text (the page loads
 * nothing from elsewhere). Headings get an id from their text so a section can be linked.
 *
 * `marked` is loaded, and the page rendered, on first use: its first parse takes tens of ms,
 * which the sandbox's start (and so paper mode's) should not pay for a page few people open.
 */
import type { Marked, Tokens } from 'marked';

export function escapeHtml(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** The id of a heading: "Rate limits" -> "rate-limits". */
export function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

const SAFE_HREF = /^(\/|#|https?:)/i;

async function createMarkdown(): Promise<Marked> {
  const { Marked } = await import('marked');
  return new Marked({
    async: false,
    gfm: true,
    renderer: {
      heading({ tokens, depth }: Tokens.Heading): string {
        const id = slug(this.parser.parseInline(tokens, this.parser.textRenderer));
        return `<h${depth} id="${id}">${this.parser.parseInline(tokens)}</h${depth}>\n`;
      },
      html({ text }: Tokens.HTML | Tokens.Tag): string {
        return escapeHtml(text);
      },
      link({ href, tokens }: Tokens.Link): string {
        const label = this.parser.parseInline(tokens);
        return SAFE_HREF.test(href) ? `<a href="${escapeHtml(href)}">${label}</a>` : label;
      },
      image({ text }: Tokens.Image): string {
        return escapeHtml(text);
      },
    },
  });
}

let markdown: Promise<Marked> | undefined;

export async function renderMarkdown(md: string): Promise<string> {
  markdown ??= createMarkdown();
  return (await markdown).parse(md, { async: false });
}

export function htmlPage(title: string, bodyHtml: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body { font-family: system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.5; color: #1d1d1f; }
code, pre { font-family: ui-monospace, monospace; background: #f3f3f5; }
code { padding: 0 .2em; border-radius: 3px; }
pre { padding: .75rem; overflow-x: auto; border-radius: 4px; }
pre code { padding: 0; }
table { border-collapse: collapse; margin: 1rem 0; }
th, td { border: 1px solid #ccc; padding: .3rem .6rem; text-align: left; vertical-align: top; }
th { background: #f3f3f5; }
h2 { border-bottom: 1px solid #ddd; padding-bottom: .2rem; margin-top: 2.5rem; }
</style>
</head>
<body>
${bodyHtml}
</body>
</html>
`;
}
