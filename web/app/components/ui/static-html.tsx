import { useState, type ComponentPropsWithoutRef, type ReactNode } from 'react';

/** One object for every render: a new one would be written, emptying the element. */
const KEEP_SERVER_HTML = { __html: '' };

type StaticTag = 'div' | 'section' | 'p';

type StaticHtmlProps<Tag extends StaticTag> = { as: Tag; children: ReactNode } & Omit<
  ComponentPropsWithoutRef<Tag>,
  'children' | 'dangerouslySetInnerHTML'
>;

/**
 * Content that never changes (article text, benefit cards, disclaimers). When the page
 * hydrates, it adopts the prerendered markup as it is instead of hydrating it node by node:
 * Preact (and React, which `npm run dev` runs) leaves an element with
 * `dangerouslySetInnerHTML` untouched while hydrating and never writes the same object
 * again; `suppressHydrationWarning` silences React's development check. Rendered on the
 * client (after a client-side navigation) it renders its children. The choice is kept for
 * the life of the element. It must hold nothing interactive.
 */
export function StaticHtml<Tag extends StaticTag>({ as, children, ...props }: StaticHtmlProps<Tag>) {
  // The first load is hydrating until the root marks the page interactive (root.tsx); the
  // prerender itself renders the children.
  const [keepServerHtml] = useState(
    () => typeof document !== 'undefined' && document.documentElement.dataset.hydrated !== 'true',
  );
  const Element = as as StaticTag;
  return keepServerHtml ? (
    <Element {...props} dangerouslySetInnerHTML={KEEP_SERVER_HTML} suppressHydrationWarning />
  ) : (
    <Element {...props}>{children}</Element>
  );
}
