import { useState, useSyncExternalStore, type ComponentPropsWithoutRef, type ReactNode } from 'react';

const subscribeToNothing = () => () => {};
const onClient = () => false;
const whileHydrating = () => true;

/** One object for every render: a new one would make React write it, emptying the element. */
const KEEP_SERVER_HTML = { __html: '' };

type StaticTag = 'div' | 'section' | 'p';

type StaticHtmlProps<Tag extends StaticTag> = { as: Tag; children: ReactNode } & Omit<
  ComponentPropsWithoutRef<Tag>,
  'children' | 'dangerouslySetInnerHTML'
>;

/**
 * Content that never changes (article text, benefit cards, disclaimers). When React hydrates
 * it, it adopts the prerendered markup as it is instead of hydrating it node by node: an
 * empty `dangerouslySetInnerHTML` is not compared with the server's children in production,
 * and `suppressHydrationWarning` silences development's check. Rendered on the client
 * (client-side navigation, or React rendering afresh after a hydration error), it renders
 * its children. The choice is kept for the life of the element. It must hold nothing
 * interactive.
 */
export function StaticHtml<Tag extends StaticTag>({ as, children, ...props }: StaticHtmlProps<Tag>) {
  // In the browser React reads the server snapshot while hydrating, and only then; the
  // prerender itself renders the children.
  const hydrating = useSyncExternalStore(subscribeToNothing, onClient, whileHydrating);
  const [keepServerHtml] = useState(hydrating && typeof document !== 'undefined');
  const Element = as as StaticTag;
  return keepServerHtml ? (
    <Element {...props} dangerouslySetInnerHTML={KEEP_SERVER_HTML} suppressHydrationWarning />
  ) : (
    <Element {...props}>{children}</Element>
  );
}
