import { renderToStringAsync } from 'preact-render-to-string';
import { renderToReadableStream } from 'react-dom/server';
import { ServerRouter, type EntryContext } from 'react-router';
import { adaptReactTreesForPreact } from './lib/preact-adapter';

adaptReactTreesForPreact({ htmlAsFragment: false });

/**
 * Renders every prerendered page at build time (the site has no server rendering): the
 * whole page at once, with the page's data inlined where React Router streams it. Builds
 * render with Preact; the dev server keeps React (decision 030).
 */
export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
) {
  const page = <ServerRouter context={routerContext} url={request.url} />;
  let html: string;
  if (import.meta.env.DEV) {
    const stream = await renderToReadableStream(page);
    await stream.allReady;
    html = await new Response(stream).text();
  } else {
    // preact-render-to-string is typed with Preact's element type; the element is the same.
    html = `<!DOCTYPE html>${await renderToStringAsync(page as never)}`;
  }
  responseHeaders.set('Content-Type', 'text/html');
  return new Response(html, { headers: responseHeaders, status: responseStatusCode });
}
