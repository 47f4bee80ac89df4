import type { DEVICES } from '@guida/shared/analytics-rules';

/** Coarse facts about the visitor's device, as the spec's page view carries them. */
export function visitorEnvironment() {
  const ua = navigator.userAgent;
  const touchMac = /Macintosh/.test(ua) && navigator.maxTouchPoints > 1;
  const device: (typeof DEVICES)[number] =
    /iPad|Tablet/i.test(ua) || touchMac || (/Android/.test(ua) && !/Mobile/.test(ua))
      ? 'Tablet'
      : /Mobi|iPhone|Android/i.test(ua)
        ? 'Mobile'
        : 'Desktop';
  const browser = /Edg\//.test(ua)
    ? 'Edge'
    : /OPR\//.test(ua)
      ? 'Opera'
      : /Firefox\//.test(ua)
        ? 'Firefox'
        : /Chrome\/|Chromium\//.test(ua)
          ? 'Chrome'
          : /Safari\//.test(ua)
            ? 'Safari'
            : 'Altro';
  const os = /Windows/.test(ua)
    ? 'Windows'
    : /Android/.test(ua)
      ? 'Android'
      : /iPhone|iPad|iPod/.test(ua) || touchMac
        ? 'iOS'
        : /Mac OS X/.test(ua)
          ? 'macOS'
          : /Linux/.test(ua)
            ? 'Linux'
            : 'Altro';
  return {
    userAgent: ua,
    language: navigator.language,
    screenResolution: `${screen.width}x${screen.height}`,
    device,
    browser,
    os,
  };
}
