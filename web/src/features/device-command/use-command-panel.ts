import type { TRpcMethod } from '@blrms/contracts';
import { useState } from 'react';
import { ApiError, reportApiError } from '../../api/errors';
import type { SendOutcome } from './CustomCommandModal';
import type { CommandInput } from './use-device-commands';
import { useDeviceCommands, useLiveDeviceCommands, useSendCommand } from './use-device-commands';

export const COMMAND_PAGE_SIZE = 10;

/**
 * The state of a device's command panel: the page of recent commands (live from the device's
 * channel), the rows opened, and sending, whose refusal (offline, bad parameters) is kept to be
 * shown where the command was sent; the command just sent opens on the first page.
 */
export function useCommandPanel(deviceId: string) {
  const [pageNo, setPageNo] = useState(1);
  const [expanded, setExpanded] = useState<string[]>([]);
  const [refusal, setRefusal] = useState<string | null>(null);
  const commands = useDeviceCommands({
    deviceId,
    pageNo,
    pageSize: COMMAND_PAGE_SIZE,
    order: 'desc',
  });
  const send = useSendCommand();
  useLiveDeviceCommands(deviceId);

  const run = async (input: Omit<CommandInput, 'deviceId'>): Promise<SendOutcome> => {
    setRefusal(null);
    try {
      const command = await send.mutateAsync({ ...input, deviceId });
      setExpanded((keys) => [command.id, ...keys]);
      setPageNo(1);
      return { sent: true };
    } catch (e) {
      // The server's reason (the device is offline, bad parameters) is shown where it was sent.
      if (e instanceof ApiError && (e.status === 409 || e.status === 400)) {
        return { sent: false, refusal: e.message };
      }
      if (e instanceof ApiError) reportApiError(e);
      return { sent: false, refusal: null };
    }
  };
  const builtIn = async (method: TRpcMethod) => {
    const outcome = await run({ method });
    if (!outcome.sent) setRefusal(outcome.refusal);
  };
  const sending = (method: string) => send.isPending && send.variables?.method === method;

  return {
    pageNo,
    setPageNo,
    expanded,
    setExpanded,
    refusal,
    setRefusal,
    send,
    commands,
    run,
    builtIn,
    sending,
  };
}
