import { describe, expect, it } from 'vitest';
import { viewedSection } from './viewed-section';

const SCREEN = 740;
/** Sections stacked from `top` (the page scrolled so that the first starts there), with these heights. */
function stacked(top: number, sections: Record<string, number>) {
  let edge = top;
  return Object.entries(sections).map(([name, height]) => {
    const box = { name, top: edge, bottom: edge + height };
    edge += height;
    return box;
  });
}

describe('the section the visitor is reading', () => {
  it('is a section taller than twice the screen while it fills the screen, though never half of it is visible', () => {
    const page = { intro: 500, chapter: 4000, form: 900 };
    expect(viewedSection(stacked(-2000, page), SCREEN)).toBe('chapter');
    // Filling the upper half of the screen, the rest being the form's.
    expect(viewedSection(stacked(-(500 + 4000 - 380), page), SCREEN)).toBe('chapter');
  });

  it('is a short section while at least half of it is visible, even on a small part of the screen', () => {
    // The footer fills the screen below a 300 px disclaimer shown whole.
    expect(viewedSection([{ name: 'disclaimer', top: 100, bottom: 400 }], SCREEN)).toBe('disclaimer');
    expect(viewedSection([{ name: 'disclaimer', top: 580, bottom: 880 }], SCREEN)).toBe('disclaimer');
    // Less than half of it visible, and far less than half the screen: not viewed.
    expect(viewedSection([{ name: 'disclaimer', top: 650, bottom: 950 }], SCREEN)).toBeNull();
  });

  it('is the one taking the most of the screen when several count', () => {
    // A whole 200 px section and 540 px of a long one below it.
    expect(viewedSection(stacked(0, { related: 200, chapter: 3000 }), SCREEN)).toBe('chapter');
    // A whole 300 px intro and 440 px of the next: the intro is whole, the chapter fills more.
    expect(viewedSection(stacked(0, { intro: 300, chapter: 3000 }), SCREEN)).toBe('chapter');
    expect(viewedSection(stacked(0, { intro: 500, chapter: 3000 }), SCREEN)).toBe('intro');
  });

  it('is none when no section counts: between sections, above or below them, or an empty one', () => {
    expect(viewedSection(stacked(-4000, { chapter: 3800 }), SCREEN)).toBeNull();
    expect(viewedSection(stacked(SCREEN, { chapter: 3800 }), SCREEN)).toBeNull();
    expect(viewedSection([{ name: 'empty', top: 100, bottom: 100 }], SCREEN)).toBeNull();
    expect(viewedSection([], SCREEN)).toBeNull();
  });
});
