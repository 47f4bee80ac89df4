import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { LiveStats } from '@guida/shared/schemas/analytics';
import { VisitorBox } from './visitor-box';

const stats = (changes: Partial<LiveStats>): LiveStats => ({
  visitorsOnline: 0,
  readersOfPage: 0,
  guideRequestsLast2h: 0,
  downloadsLast2h: 0,
  recentDeliveries: [],
  placesRemaining: null,
  placesTotal: null,
  ...changes,
});

describe('visitor box', () => {
  it('shows the real figures, the visitor not counted among the others reading', () => {
    const html = renderToStaticMarkup(<VisitorBox stats={stats({ visitorsOnline: 12, downloadsLast2h: 5, readersOfPage: 4 })} />);
    expect(html).toContain('12 visitatori online');
    expect(html).toContain('5 guide scaricate nelle ultime 2 ore');
    expect(html).toContain('3 altre persone stanno leggendo questa pagina');
  });

  it('leaves out lines without a figure (counts of people below the API threshold arrive as 0), and hides when nothing is true to show', () => {
    const fewPeople = renderToStaticMarkup(<VisitorBox stats={stats({ downloadsLast2h: 1 })} pageType="article" />);
    expect(fewPeople).toContain('1 guida scaricata nelle ultime 2 ore');
    expect(fewPeople).not.toContain('online');
    expect(fewPeople).not.toContain('leggendo');
    expect(renderToStaticMarkup(<VisitorBox stats={stats({ visitorsOnline: 4, readersOfPage: 4 })} pageType="article" />)).toContain(
      '3 altre persone stanno leggendo questo articolo',
    );
    expect(renderToStaticMarkup(<VisitorBox stats={stats({})} />)).toBe('');
  });
});
