import { options } from 'preact';
import { renderToStringAsync } from 'preact-render-to-string';
import { ServerRouter, type EntryContext } from 'react-router';

// React renders suppressHydrationWarning as nothing; Preact would write it as an attribute.
const nextVnodeHook = options.vnode;
options.vnode = (vnode) => {
  if (typeof vnode.type === 'string' && vnode.props && 'suppressHydrationWarning' in vnode.props) {
    delete (vnode.props as Record<string, unknown>).suppressHydrationWarning;
  }
  nextVnodeHook?.(vnode);
};

/**
 * Renders every prerendered page at build time (the site has no server rendering): the
 * whole page at once, with the page's data inlined where React Router streams it.
 */
export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
) {
  // preact-render-to-string is typed with Preact's element type; the element is the same.
  const html = await renderToStringAsync((<ServerRouter context={routerContext} url={request.url} />) as never);
  responseHeaders.set('Content-Type', 'text/html');
  return new Response(`<!DOCTYPE html>${html}`, { headers: responseHeaders, status: responseStatusCode });
}
