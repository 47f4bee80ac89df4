import { InWidgetSlot } from '../../components/widget-slot';
import { AfterHydrationIdle } from '../../lib/after-hydration';
import { ActivityPopup } from './activity-popup';
import { useLiveStats } from './use-live-stats';
import { VisitorBox, type PageType } from './visitor-box';

interface SocialProofProps {
  path: string;
  pageType?: PageType;
  isSwiss?: boolean;
}

/**
 * The widgets of a page with the guide form, fed by the real live figures of that page,
 * once the page is idle; they live in the widget slot under the form.
 */
export function SocialProof(props: SocialProofProps) {
  return (
    <AfterHydrationIdle>
      <LiveWidgets {...props} />
    </AfterHydrationIdle>
  );
}

function LiveWidgets({ path, pageType, isSwiss }: SocialProofProps) {
  const { data: stats } = useLiveStats(path);
  if (!stats) return null;
  return (
    <InWidgetSlot>
      <VisitorBox stats={stats} {...(pageType ? { pageType } : {})} />
      <ActivityPopup deliveries={stats.recentDeliveries} {...(isSwiss ? { isSwiss } : {})} />
    </InWidgetSlot>
  );
}
