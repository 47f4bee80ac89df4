import { Fragment, options } from 'preact';
import { inNextTask } from './next-task';

/**
 * What Preact takes differently from React in the trees it renders (decision 030):
 * `suppressHydrationWarning` means nothing to Preact, which would write it out as an
 * attribute; and in the browser, where Preact hydrates a document into its <html> element
 * (React takes the document itself), the root's <html> becomes a fragment so that <head>
 * and <body> meet their prerendered nodes. Without effect on React (`npm run dev`).
 */
export function adaptReactTreesForPreact({ htmlAsFragment }: { htmlAsFragment: boolean }) {
  const nextVnodeHook = options.vnode;
  options.vnode = (vnode) => {
    if (typeof vnode.type === 'string') {
      const props = vnode.props as Record<string, unknown> | null;
      if (props && 'suppressHydrationWarning' in props) delete props.suppressHydrationWarning;
      if (htmlAsFragment && vnode.type === 'html') vnode.type = Fragment;
    }
    nextVnodeHook?.(vnode);
  };
}

/**
 * Effects run in a task of their own right after the render that scheduled them, as React
 * runs them (its scheduler posts a message), instead of after the next animation frame:
 * sooner, and also where frames and timers are held back (a tab in the background, a
 * paused clock).
 */
export function runEffectsAfterRender() {
  options.requestAnimationFrame = inNextTask;
}
