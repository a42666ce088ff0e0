import type { TChannel, TDeviceLive } from '@blrms/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useChannel, useRealtimeMessage } from '../../realtime/use-realtime';
import type { Throttle } from './live-device';
import { throttle } from './live-device';

/** Reloads caused by live messages: at most one a second per page (issue 4). */
export const LIVE_RELOAD_MS = 1000;

/**
 * Device status changes of `channel` (`devices` or `device:{id}`) while mounted: `onChange` gets
 * each batch; `onSubscribed` runs when the server confirms the subscription (at first and after a
 * reconnect), from when no change can be missed, so the caller loads its data again. Nothing is
 * subscribed while `channel` is null.
 */
export function useDeviceStatus(
  channel: TChannel | null,
  onChange: (devices: TDeviceLive[]) => void,
  onSubscribed: () => void,
): void {
  useChannel(channel, onSubscribed);
  useRealtimeMessage(['device-status'], (message) => {
    if (channel !== null) onChange(message.devices);
  });
}

/**
 * A reload that live messages may ask for as often as they come: it runs at most once per
 * LIVE_RELOAD_MS. `reloading` is true while a reload it started runs, so that a table can leave
 * out its spinner for these background reloads.
 */
export function useLiveReload(reload: () => Promise<unknown>): {
  request: () => void;
  reloading: boolean;
} {
  const latest = useRef(reload);
  useEffect(() => {
    latest.current = reload;
  });
  const [running, setRunning] = useState(0);
  const gate = useRef<Throttle | null>(null);
  useEffect(() => {
    const created = throttle(() => {
      setRunning((n) => n + 1);
      void latest.current().finally(() => setRunning((n) => n - 1));
    }, LIVE_RELOAD_MS);
    gate.current = created;
    return () => {
      created.cancel();
      gate.current = null;
    };
  }, []);
  const request = useCallback(() => gate.current?.request(), []);
  return { request, reloading: running > 0 };
}
