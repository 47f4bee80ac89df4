/** Where a tracked section is on the screen: its edges relative to the top of the viewport, in px. */
export interface SectionBox {
  name: string;
  top: number;
  bottom: number;
}

/**
 * The section the visitor is reading. A section counts as viewed while it fills at least
 * half the screen or at least half of it is visible: a section taller than twice the
 * screen (an article's chapter on a phone) can never be half visible, yet it is all the
 * visitor sees. Of the sections that count, the one taking the most of the screen; null
 * when none does (the footer, say).
 */
export function viewedSection(sections: readonly SectionBox[], screenHeight: number): string | null {
  let viewed: string | null = null;
  let viewedHeight = 0;
  for (const { name, top, bottom } of sections) {
    const height = bottom - top;
    const visible = Math.min(bottom, screenHeight) - Math.max(top, 0);
    if (height <= 0 || visible <= 0) continue;
    const counts = visible >= screenHeight / 2 || visible >= height / 2;
    if (counts && visible > viewedHeight) {
      viewed = name;
      viewedHeight = visible;
    }
  }
  return viewed;
}
