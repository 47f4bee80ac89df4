import { Switch } from 'radix-ui';
import { useId, useState } from 'react';
import { SideSheet } from '../../components/ui/side-sheet';
import { cookieTexts as t } from '@guida/shared/messages';
import { useCookieConsent } from './cookie-consent';

type Category = 'essential' | 'analytics' | 'marketing' | 'preferences';
const CATEGORIES: Category[] = ['essential', 'analytics', 'marketing', 'preferences'];

/** The side panel with one card and toggle per category (loaded lazily). */
export default function CookieSettingsPanel() {
  const { panelOpen, closePanel, flags, save } = useCookieConsent();
  const titleId = useId();
  const introId = useId();
  // Each opening starts from the saved choice.
  const [choice, setChoice] = useState(flags);
  const [openedWith, setOpenedWith] = useState(flags);
  if (panelOpen && openedWith !== flags) {
    setOpenedWith(flags);
    setChoice(flags);
  }

  return (
    <SideSheet
      open={panelOpen}
      onClose={closePanel}
      labelledBy={titleId}
      describedBy={introId}
      className="sm:w-[400px]"
    >
      <div className="flex min-h-full flex-col gap-4">
        <div className="flex items-start justify-between gap-4">
          <h2 id={titleId} className="text-lg font-semibold text-slate-900">
            {t.panelTitle}
          </h2>
          <button
            type="button"
            onClick={closePanel}
            aria-label={t.closePanel}
            className="rounded p-1 text-xl leading-none text-slate-600 hover:text-slate-900"
          >
            <span aria-hidden="true">×</span>
          </button>
        </div>
        <p id={introId} className="text-sm text-slate-700">
          {t.panelIntro}
        </p>
        <ul className="flex flex-col gap-3">
          {CATEGORIES.map((category) => {
            const locked = category === 'essential';
            const id = `cookie-${category}`;
            return (
              <li key={category} className="rounded-lg border border-slate-200 p-4">
                <div className="flex items-center justify-between gap-3">
                  <label htmlFor={id} className="font-medium text-slate-900">
                    {t.categories[category].title}
                    {locked ? (
                      <span className="ml-2 rounded bg-slate-200 px-2 py-0.5 text-xs font-semibold text-slate-800">
                        {t.required}
                      </span>
                    ) : null}
                  </label>
                  <Switch.Root
                    id={id}
                    checked={choice[category]}
                    disabled={locked}
                    onCheckedChange={(checked) => {
                      if (!locked) setChoice((current) => ({ ...current, [category]: checked }));
                    }}
                    className="relative h-6 w-11 shrink-0 rounded-full bg-slate-400 transition-colors data-[state=checked]:bg-emerald-700 disabled:opacity-70"
                  >
                    <Switch.Thumb className="block h-5 w-5 translate-x-0.5 rounded-full bg-white shadow transition-transform data-[state=checked]:translate-x-[22px]" />
                  </Switch.Root>
                </div>
                <p className="mt-2 text-sm text-slate-700">{t.categories[category].description}</p>
              </li>
            );
          })}
        </ul>
        <button
          type="button"
          className="btn-primary mt-auto"
          onClick={() =>
            save({ analytics: choice.analytics, marketing: choice.marketing, preferences: choice.preferences })
          }
        >
          {t.save}
        </button>
      </div>
    </SideSheet>
  );
}
