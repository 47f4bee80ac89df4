import { InWidgetSlot } from '../../components/widget-slot';
import { ActivityPopup } from './activity-popup';
import { useLiveStats } from './use-live-stats';
import { VisitorBox, type PageType } from './visitor-box';

export interface LiveWidgetsProps {
  path: string;
  pageType?: PageType;
  isSwiss?: boolean;
}

/** The visitor box and the activity popup, in the page's widget slot, once the figures are in. */
export default function LiveWidgets({ path, pageType, isSwiss }: LiveWidgetsProps) {
  const { data: stats } = useLiveStats(path);
  if (!stats) return null;
  return (
    <InWidgetSlot>
      <VisitorBox stats={stats} {...(pageType ? { pageType } : {})} />
      <ActivityPopup deliveries={stats.recentDeliveries} {...(isSwiss ? { isSwiss } : {})} />
    </InWidgetSlot>
  );
}
