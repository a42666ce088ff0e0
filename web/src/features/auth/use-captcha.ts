import { useQuery } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { sysApi } from '../../api/sys';

/** A fresh client-chosen key (8-64 of [A-Za-z0-9_-]); every key is a new single-use captcha. */
function newCaptchaKey(): string {
  return `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;
}

export function useCaptcha() {
  const [key, setKey] = useState(newCaptchaKey);
  const query = useQuery({
    queryKey: ['captcha', key],
    queryFn: () => sysApi.captchaImage(key),
    staleTime: Infinity,
    gcTime: 0,
  });
  const refresh = useCallback(() => setKey(newCaptchaKey()), []);
  return { key, image: query.data, failed: query.isError, loading: query.isFetching, refresh };
}
