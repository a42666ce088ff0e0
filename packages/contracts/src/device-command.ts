import { z } from 'zod';
import { ZId, ZPageQuery, ZTimestamp, pageOf } from './common.js';
import {
  RPC_METHOD_PATTERN,
  RPC_METHODS,
  RPC_TIMEOUT_DEFAULT_SEC,
  RPC_TIMEOUT_MAX_SEC,
} from './device-protocol.js';

/*
 * Commands (RPC) to one online device: `reboot`, `ping` and `get_config` need `device:command`;
 * any other method is a free-form command and needs `device:command:custom` (admins). The answer
 * or the timeout reaches the console on the device's channel (`device-command`).
 */

export const COMMAND_STATES = ['sent', 'succeeded', 'failed', 'timeout'] as const;
export const ZCommandState = z.enum(COMMAND_STATES);
export type TCommandState = z.infer<typeof ZCommandState>;

export const ZDeviceCommand = z.object({
  id: ZId.describe('Request id: the `{reqId}` of the topics'),
  deviceId: ZId,
  sn: z.string(),
  method: z.string(),
  params: z.record(z.string(), z.unknown()).nullable(),
  timeoutSec: z.number().int(),
  state: ZCommandState,
  result: z.unknown().nullable().describe('What the device answered with `ok: true`'),
  error: z.string().nullable().describe('The device’s error, or why the platform gave up'),
  createBy: z.string().nullable(),
  createTime: ZTimestamp,
  replyTime: ZTimestamp.nullable(),
  lateReply: z
    .object({
      ok: z.boolean(),
      result: z.unknown().nullable(),
      error: z.string().nullable(),
      at: ZTimestamp,
    })
    .nullable()
    .describe('The device’s answer that came after the command timed out (the first one)'),
});
export type TDeviceCommand = z.infer<typeof ZDeviceCommand>;

export const ZDeviceCommandSend = z
  .object({
    deviceId: ZId,
    method: z
      .string()
      .regex(
        RPC_METHOD_PATTERN,
        'must be lowercase letters, digits, _ or ., starting with a letter',
      ),
    params: z.record(z.string(), z.unknown()).optional(),
    timeoutSec: z.number().int().min(1).max(RPC_TIMEOUT_MAX_SEC).default(RPC_TIMEOUT_DEFAULT_SEC),
  })
  .strict();
export type TDeviceCommandSend = z.infer<typeof ZDeviceCommandSend>;

/** Whether a method is one of the built-in ones (else a free-form command). */
export function isBuiltInMethod(method: string): boolean {
  return (RPC_METHODS as readonly string[]).includes(method);
}

export const ZDeviceCommandQuery = ZPageQuery.extend({ deviceId: ZId }).strict();
export type TDeviceCommandQuery = z.infer<typeof ZDeviceCommandQuery>;
export const ZDeviceCommandPage = pageOf(ZDeviceCommand);
