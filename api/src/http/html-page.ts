import { createHash } from 'node:crypto';
import type { Express, Response } from 'express';
import { FAVICON_HREF } from '@guida/shared/favicon';
import { providerIdentityLines, UNCONFIGURED_PROVIDER, type ProviderIdentity } from '@guida/shared/provider-identity';

/**
 * Small server-rendered Italian pages (guide link errors, no-JavaScript form errors, the
 * pages behind the data-request links), with the site's header and colours (Tailwind's
 * emerald and slate of web/app/app.css), so a visitor knows where they are and can still
 * ask for the guide. Their one stylesheet is inline and allowed by its hash in the CSP.
 */
const BRAND = 'oklch(50.8% .118 165.612)';
const BRAND_DARK = 'oklch(43.2% .095 166.913)';
const STYLE = [
  'body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:oklch(98.4% .003 247.858);color:oklch(20.8% .042 265.755);line-height:1.6}',
  'header{background:#fff;border-bottom:1px solid oklch(92.9% .013 255.508)}',
  '.bar{max-width:72rem;margin:0 auto;padding:.75rem 1rem;display:flex;align-items:center;justify-content:space-between;gap:1rem}',
  `.brand{font-size:1.125rem;font-weight:700;color:oklch(20.8% .042 265.755);text-decoration:none}.brand span{color:${BRAND}}`,
  `.cta{border-radius:.375rem;background:${BRAND};color:#fff;padding:.5rem 1rem;font-size:.875rem;font-weight:600;text-decoration:none}`,
  'main{max-width:36rem;margin:10vh auto;padding:2rem 1.5rem;background:#fff;border-radius:12px;box-shadow:0 1px 3px rgba(15,23,42,.12)}',
  'h1{font-size:1.5rem;margin:0 0 1rem}',
  `main a{color:${BRAND_DARK};font-weight:600}`,
  'ul{padding-left:1.25rem}',
  `button{font:inherit;font-weight:600;color:#fff;background:${BRAND};border:0;border-radius:8px;padding:.75rem 1.25rem;cursor:pointer}`,
  `a:focus-visible,button:focus-visible{outline:2px solid ${BRAND};outline-offset:2px}`,
  'footer{max-width:36rem;margin:0 auto 2rem;padding:0 1.5rem;text-align:center;font-size:.75rem;color:oklch(44.6% .043 257.281)}',
  'footer p{margin:.25rem 0}',
].join('');

export const HTML_PAGE_STYLE_HASH = `'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`;

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

export interface HtmlPage {
  title: string;
  paragraphs: string[];
  list?: string[];
  /** A one-button form (a POST to this site), e.g. to confirm what a link asks. */
  form?: { action: string; label: string };
  link: { href: string; label: string };
}

/** The provider these pages name in their footer (d.lgs. 70/2003 art. 7), set once by createApp. */
export function namePageProvider(app: Express, provider: ProviderIdentity) {
  app.locals.pageProvider = provider;
}

export function sendHtmlPage(res: Response, status: number, page: HtmlPage) {
  const provider = providerIdentityLines((res.app.locals.pageProvider as ProviderIdentity | undefined) ?? UNCONFIGURED_PROVIDER);
  const list = page.list?.length
    ? `<ul>${page.list.map((item) => `<li>${escapeHtml(item)}</li>`).join('')}</ul>`
    : '';
  const form = page.form
    ? `<form method="post" action="${escapeHtml(page.form.action)}"><button type="submit">${escapeHtml(page.form.label)}</button></form>`
    : '';
  const html = `<!doctype html>
<html lang="it">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<link rel="icon" href="${FAVICON_HREF}" type="image/svg+xml">
<title>${escapeHtml(page.title)}</title>
<style>${STYLE}</style>
</head>
<body>
<header><div class="bar"><a class="brand" href="/">Guida<span>Finanza</span></a><a class="cta" href="/#richiedi-guida">Richiedi la guida</a></div></header>
<main>
<h1>${escapeHtml(page.title)}</h1>
${page.paragraphs.map((text) => `<p>${escapeHtml(text)}</p>`).join('\n')}
${list}
${form}
<p><a href="${escapeHtml(page.link.href)}">${escapeHtml(page.link.label)}</a></p>
</main>
<footer>${provider.map((line) => `<p>${escapeHtml(line)}</p>`).join('')}</footer>
</body>
</html>`;
  res.status(status).type('html').set('Cache-Control', 'no-store').send(html);
}
