import { renderToReadableStream } from 'react-dom/server';
import { ServerRouter, type EntryContext } from 'react-router';

/**
 * Renders every prerendered page at build time (the site has no server rendering) with
 * React's server renderer: the whole page once everything is ready, the page's data
 * inlined where React Router streams it, as React documents for static generation.
 */
export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
) {
  // Every Suspense boundary in place in the HTML: by default React moves a large page's
  // later boundaries to the end of the document (hidden, put back by an inline script), so
  // a visitor without JavaScript would never see them, and the page is laid out twice.
  const stream = await renderToReadableStream(<ServerRouter context={routerContext} url={request.url} />, {
    progressiveChunkSize: Number.POSITIVE_INFINITY,
  });
  await stream.allReady;
  responseHeaders.set('Content-Type', 'text/html');
  return new Response(stream, { headers: responseHeaders, status: responseStatusCode });
}
