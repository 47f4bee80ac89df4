import { useLayoutEffect } from 'react';
import { useLocation, useNavigationType } from 'react-router';

/**
 * After a client-side navigation to `/page#id`, brings the element with that id into view
 * once the new page is in the document. React Router's <ScrollRestoration> does it in a
 * layout effect of its own, which under Preact (decision 030) can run before the new page
 * is rendered, since Preact commits each updated component on its own: it then finds no
 * element and scrolls to the top. Back and forward keep the positions React Router
 * restores; the first load keeps the browser's own jump to the anchor.
 */
export function useScrollToHashAfterNavigation() {
  const { hash, key } = useLocation();
  const navigationType = useNavigationType();
  useLayoutEffect(() => {
    if (navigationType === 'POP' || !hash) return;
    document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView();
  }, [key, hash, navigationType]);
}
