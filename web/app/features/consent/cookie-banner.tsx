import { useRef } from 'react';
import { cookieTexts as t } from '@guida/shared/messages';
import { useOverlayHeight } from '../../lib/overlay-height';
import { useCookieConsent } from './cookie-consent';

const ALL = { analytics: true, marketing: true, preferences: true };
const NONE = { analytics: false, marketing: false, preferences: false };

/**
 * The fixed bar at the bottom, shown until the visitor chooses. From the md breakpoint it
 * keeps to the left half of the screen, where the guide form never is (decision 031).
 */
export function CookieBanner() {
  const { status, save, openPanel, panelOpen } = useCookieConsent();
  if (status !== 'banner' || panelOpen) return null;
  return <Banner save={save} openPanel={openPanel} />;
}

function Banner({ save, openPanel }: Pick<ReturnType<typeof useCookieConsent>, 'save' | 'openPanel'>) {
  const banner = useRef<HTMLElement>(null);
  useOverlayHeight(banner, 'cookieBanner');
  return (
    <section
      ref={banner}
      aria-labelledby="cookie-banner-title"
      className="fixed inset-x-0 bottom-0 z-40 border-t border-slate-200 bg-white/95 p-4 shadow-[0_-4px_16px_rgba(15,23,42,0.12)] backdrop-blur md:bottom-4 md:left-4 md:right-auto md:w-[calc(50vw-2rem)] md:max-w-xl md:rounded-xl md:border md:shadow-xl"
    >
      <div className="relative flex flex-col gap-3 pr-8">
        <div className="text-sm text-slate-700">
          <h2 id="cookie-banner-title" className="mb-1 text-base font-semibold text-slate-900">
            {t.bannerTitle}
          </h2>
          <p>
            {t.bannerText} {t.bannerCloseEffect}{' '}
            <a href="/privacy" target="_blank" rel="noopener" className="font-medium text-emerald-800 underline">
              {t.privacyLink}
            </a>
          </p>
        </div>
        {/* Refusing is as easy and as visible as accepting (EDPB): the two choices share one look and one size. */}
        <div className="grid shrink-0 grid-cols-2 gap-2">
          <button type="button" onClick={() => save(NONE)} className="btn-primary">
            {t.essentialsOnly}
          </button>
          <button type="button" onClick={() => save(ALL)} className="btn-primary">
            {t.acceptAll}
          </button>
          <button type="button" onClick={openPanel} className="btn-secondary col-span-2">
            {t.customize}
          </button>
        </div>
        <button
          type="button"
          aria-label={t.closeBanner}
          onClick={() => save(NONE)}
          className="absolute -top-1 right-0 rounded p-1 text-xl leading-none text-slate-600 hover:text-slate-900"
        >
          <span aria-hidden="true">×</span>
        </button>
      </div>
    </section>
  );
}

/** Footer link that reopens the panel. */
export function CookiePreferencesLink() {
  const { openPanel } = useCookieConsent();
  return (
    <button type="button" onClick={openPanel} className="underline hover:text-white">
      {t.reopen}
    </button>
  );
}
