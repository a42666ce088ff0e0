import type { TDeviceCommand, TDeviceCommandQuery, TDeviceCommandSend } from '@blrms/contracts';
import { deviceChannel } from '@blrms/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../api/client';
import { useChannel, useRealtimeMessage } from '../../realtime/use-realtime';
import type { CommandPage } from './command-page';
import { withCommand } from './command-page';

const BASE = '/device/command';

export type CommandParams = Omit<TDeviceCommandQuery, '_t'>;
/** A command as the console sends it: the timeout may be left to the server's default. */
export type CommandInput = Omit<TDeviceCommandSend, 'timeoutSec'> & { timeoutSec?: number };

const commandsKey = (deviceId: string) => ['deviceCommands', deviceId] as const;

export function useDeviceCommands(params: CommandParams) {
  return useQuery({
    queryKey: [...commandsKey(params.deviceId), params],
    queryFn: () => http.get<CommandPage>(`${BASE}/list`, params),
    placeholderData: keepPreviousData,
  });
}

/** Puts a command (just sent, or its outcome) into every loaded page of its device's list. */
function useStoreCommand() {
  const client = useQueryClient();
  return (command: TDeviceCommand) => {
    for (const [key, page] of client.getQueriesData<CommandPage>({
      queryKey: commandsKey(command.deviceId),
    })) {
      const params = key[2] as CommandParams | undefined;
      if (page && params) {
        client.setQueryData(key, withCommand(page, params.pageNo, params.pageSize, command));
      }
    }
  };
}

/**
 * Sends a command. The panel shows the server's refusal (the device is offline: 409) itself, so
 * the HTTP client stays quiet.
 */
export function useSendCommand() {
  const store = useStoreCommand();
  return useMutation({
    mutationFn: (body: CommandInput) => http.post<TDeviceCommand>(BASE, body, { silent: true }),
    onSuccess: store,
  });
}

/**
 * Keeps a device's command list current while mounted: the device's channel brings each answer
 * or timeout (and commands others send); after each (re)subscription the list loads again.
 */
export function useLiveDeviceCommands(deviceId: string) {
  const client = useQueryClient();
  const store = useStoreCommand();
  useChannel(
    deviceChannel(deviceId),
    () => void client.invalidateQueries({ queryKey: commandsKey(deviceId) }),
  );
  useRealtimeMessage(['device-command'], ({ command }) => {
    if (command.deviceId === deviceId) store(command);
  });
}
