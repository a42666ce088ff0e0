import { useCallback, useEffect, useState } from 'react';
import { sysApi } from '../../api/sys';

/** A fresh client-chosen key (8-64 of [A-Za-z0-9_-]); every key is a new single-use captcha. */
function newCaptchaKey(): string {
  return `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;
}

/** The server's answer for a key: the image, or null when it could not be loaded. */
type Answer = { key: string; image: string | null };

/**
 * The login captcha: an image for a key of the page's choosing. `image` is '' when the server runs
 * without captchas, undefined while it loads.
 */
export function useCaptcha() {
  const [key, setKey] = useState(newCaptchaKey);
  const [answer, setAnswer] = useState<Answer | null>(null);

  useEffect(() => {
    let current = true;
    sysApi.captchaImage(key).then(
      (image) => current && setAnswer({ key, image }),
      () => current && setAnswer({ key, image: null }),
    );
    return () => {
      current = false;
    };
  }, [key]);

  const fresh = answer?.key === key ? answer : null;
  // A server without captchas stays without them: a new key does not bring the field back.
  const image = fresh ? (fresh.image ?? undefined) : answer?.image === '' ? '' : undefined;
  const refresh = useCallback(() => setKey(newCaptchaKey()), []);
  return { key, image, failed: fresh !== null && fresh.image === null, refresh };
}
