import type { Scheduler } from '../../platform/scheduler/scheduler.js';
import type { Platform, ServerModule } from '../../platform/module.js';
import type { CampaignService } from '../campaign/campaign.service.js';
import type { DeviceCommandService } from '../device-command/command.service.js';
import type { DeviceLogService } from '../device/device-log.service.js';
import type { DeviceService } from '../device/device.service.js';
import type { GroupService } from '../device/group.service.js';
import { scheduledJobMenu } from './scheduled-job.menu.js';
import './scheduled-job.messages.js';
import { ScheduledJobRepository } from './scheduled-job.repository.js';
import { scheduledJobRoutes } from './scheduled-job.routes.js';
import { ScheduledJobService, type MessageCenter } from './scheduled-job.service.js';

export type { MessageCenter };

/**
 * Scheduled jobs: operator jobs (device operations and the fleet report, run by the
 * `scheduled-job.due` cluster job) and the platform's own jobs from the scheduler. `messages` is
 * the message center; without it, fleet reports fail with a message saying so.
 */
export function scheduledJobModule(
  { db, permissions, clock, log }: Platform,
  deps: {
    scheduler: Scheduler;
    devices: DeviceService;
    groups: GroupService;
    commands: DeviceCommandService;
    campaigns: CampaignService;
    deviceLogs: DeviceLogService;
    messages?: MessageCenter;
  },
) {
  const scheduledJobs = new ScheduledJobService(
    new ScheduledJobRepository(db),
    deps.scheduler,
    {
      devices: deps.devices,
      groups: deps.groups,
      commands: deps.commands,
      campaigns: deps.campaigns,
      deviceLogs: deps.deviceLogs,
      messages: deps.messages,
    },
    permissions,
    clock,
    log,
  );
  const module: ServerModule = {
    name: 'scheduled-job',
    routes: [scheduledJobRoutes(scheduledJobs)],
    jobs: scheduledJobs.scheduledJobs(),
    menu: scheduledJobMenu,
  };
  return { scheduledJobs, module };
}
