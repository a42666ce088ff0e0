import type { TChannel, TServerMessage, TServerMessageType } from '@blrms/contracts';
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { getToken } from '../api/session';
import { isLanguage } from '../shared/language';
import { useLoginUser } from '../shared/use-login-user';
import { realtime, type RealtimeStatus } from './realtime-client';

/** Calls `handler` for every websocket message of one of `types`, while mounted. */
export function useRealtimeMessage<T extends TServerMessageType>(
  types: readonly T[],
  handler: (message: Extract<TServerMessage, { type: T }>) => void,
): void {
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  const key = types.join(',');
  useEffect(() => {
    const offs = key
      .split(',')
      .map((type) => realtime.subscribe(type as T, (message) => latest.current(message)));
    return () => offs.forEach((off) => off());
  }, [key]);
}

/**
 * Keeps the tab's socket subscribed to `channel` while mounted (none when null). Components that
 * share a channel share one subscription. `onSubscribed` runs each time the server confirms the
 * subscription (`subscribed`: after the first subscribe and after every reconnect), and when the
 * server says messages were missed (`resync`): data loaded before may have missed a change that
 * was never sent, so the caller loads it again.
 */
export function useChannel(channel: TChannel | null, onSubscribed?: () => void): void {
  useEffect(() => {
    if (channel === null) return;
    return realtime.joinChannel(channel);
  }, [channel]);
  useRealtimeMessage(['subscribed', 'resync'], (message) => {
    if (channel === null) return;
    if (message.type === 'resync' || message.channel === channel) onSubscribed?.();
  });
}

/**
 * Calls `handler` while mounted whenever messages may have been missed (a `resync` from the
 * server, a reconnect), for data shown live without a channel: the caller loads it again.
 */
export function useResync(handler: () => void): void {
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(() => realtime.onResync(() => latest.current()), []);
}

export function useRealtimeStatus(): RealtimeStatus {
  return useSyncExternalStore(
    (listener) => realtime.onStatus(listener),
    () => realtime.status,
  );
}

/** Keeps the tab's websocket open for the logged-in user while the console is shown. */
export function useRealtimeConnection(): void {
  const user = useLoginUser();
  const userId = user?.id;
  const { i18n } = useTranslation();
  const language = i18n.language;
  // The server writes announcement titles (`msgTxt`) in the language the console shows.
  useEffect(() => {
    if (isLanguage(language)) realtime.setLanguage(language);
  }, [language]);
  useEffect(() => {
    const token = getToken();
    if (!userId || !token) return;
    realtime.start({ userId, token });
    return () => realtime.stop();
  }, [userId]);
}
