import { ActivityPopup } from './activity-popup';
import { useLiveStats } from './use-live-stats';
import { VisitorBox, type PageType } from './visitor-box';

/** The widgets of a landing page, fed by the real live figures of that page. */
export function SocialProof({ path, pageType, isSwiss }: { path: string; pageType?: PageType; isSwiss?: boolean }) {
  const { data: stats } = useLiveStats(path);
  if (!stats) return null;
  return (
    <>
      <VisitorBox stats={stats} {...(pageType ? { pageType } : {})} />
      <ActivityPopup deliveries={stats.recentDeliveries} {...(isSwiss ? { isSwiss } : {})} />
    </>
  );
}
