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
  const stream = await renderToReadableStream(<ServerRouter context={routerContext} url={request.url} />);
  await stream.allReady;
  responseHeaders.set('Content-Type', 'text/html');
  return new Response(stream, { headers: responseHeaders, status: responseStatusCode });
}
