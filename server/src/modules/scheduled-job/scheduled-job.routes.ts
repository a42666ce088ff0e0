import {
  ZId,
  ZPlatformJob,
  ZPlatformJobQuery,
  ZPlatformJobRun,
  ZPlatformRunResult,
  ZQuartzCronPreview,
  ZQuartzCronPreviewQuery,
  ZQuartzJob,
  ZQuartzJobEdit,
  ZQuartzJobInput,
  ZQuartzJobListQuery,
  ZQuartzJobPage,
  ZQuartzJobRun,
} from '@blrms/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok, responses } from '../../platform/http/envelope.js';
import { message } from '../../platform/http/messages.js';
import type { ScheduledJobService } from './scheduled-job.service.js';

const tags = ['quartzJob'];
const ZIdBody = z.object({ id: ZId }).strict();
const ZPlatformJobBody = ZPlatformJobQuery.omit({ _t: true });
const ZIdQuery = z.object({ id: ZId, _t: z.string().optional() }).strict();
const ZIdsQuery = z
  .object({
    ids: z
      .string()
      .min(1)
      .max(33 * 100)
      .transform((s) => s.split(','))
      .pipe(z.array(ZId).min(1).max(100)),
  })
  .strict();

const LIST = 'system:quartzJob:list';

export function scheduledJobRoutes(jobs: ScheduledJobService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/sys/quartzJob/list',
      {
        config: { permission: LIST },
        schema: {
          tags,
          summary: 'The company’s scheduled jobs, newest first',
          querystring: ZQuartzJobListQuery,
          response: responses(ZQuartzJobPage),
        },
      },
      async (req) => ok(await jobs.list(req.scope, req.query, req.lang)),
    );

    app.get(
      '/sys/quartzJob/queryById',
      {
        config: { permission: LIST },
        schema: {
          tags,
          summary: 'One job',
          querystring: ZIdQuery,
          response: responses(ZQuartzJob),
        },
      },
      async (req) => ok(await jobs.get(req.scope, req.query.id, req.lang)),
    );

    app.get(
      '/sys/quartzJob/logs',
      {
        config: { permission: LIST },
        schema: {
          tags,
          summary: 'A job’s runs, newest first (the newest 100 are kept)',
          querystring: ZIdQuery,
          response: responses(z.array(ZQuartzJobRun)),
        },
      },
      async (req) => ok(await jobs.logs(req.scope, req.query.id, req.lang)),
    );

    app.get(
      '/sys/quartzJob/cronPreview',
      {
        config: { permission: LIST },
        schema: {
          tags,
          summary: 'The next five runs of a cron schedule in a time zone',
          querystring: ZQuartzCronPreviewQuery,
          response: responses(ZQuartzCronPreview),
        },
      },
      async (req) => ok(jobs.preview(req.query.cron, req.query.timeZone)),
    );

    app.post(
      '/sys/quartzJob/add',
      {
        config: { permission: 'system:quartzJob:add' },
        schema: {
          tags,
          summary: 'Add a job; it acts as you, with your permission for its type',
          body: ZQuartzJobInput,
          response: responses(ZQuartzJob),
        },
      },
      async (req) =>
        ok(await jobs.add(req.scope, req.body, req.lang), message(req.lang, 'quartzJobSaved')),
    );

    app.put(
      '/sys/quartzJob/edit',
      {
        config: { permission: 'system:quartzJob:edit' },
        schema: {
          tags,
          summary: 'Edit a job (not its type); it then acts as you',
          body: ZQuartzJobEdit,
          response: responses(ZQuartzJob),
        },
      },
      async (req) =>
        ok(await jobs.edit(req.scope, req.body, req.lang), message(req.lang, 'quartzJobSaved')),
    );

    app.delete(
      '/sys/quartzJob/delete',
      {
        config: { permission: 'system:quartzJob:delete' },
        schema: {
          tags,
          summary: 'Delete a job',
          querystring: ZIdQuery,
          response: responses(z.null()),
        },
      },
      async (req) => {
        await jobs.delete(req.scope, [req.query.id]);
        return ok(null, message(req.lang, 'quartzJobDeleted'));
      },
    );

    app.delete(
      '/sys/quartzJob/deleteBatch',
      {
        config: { permission: 'system:quartzJob:delete' },
        schema: {
          tags,
          summary: 'Delete jobs by comma-separated ids (all or none)',
          querystring: ZIdsQuery,
          response: responses(z.null()),
        },
      },
      async (req) => {
        await jobs.delete(req.scope, req.query.ids);
        return ok(null, message(req.lang, 'quartzJobDeleted'));
      },
    );

    app.post(
      '/sys/quartzJob/pause',
      {
        config: { permission: 'system:quartzJob:pause' },
        schema: { tags, summary: 'Pause a job', body: ZIdBody, response: responses(ZQuartzJob) },
      },
      async (req) =>
        ok(
          await jobs.pause(req.scope, req.body.id, req.lang),
          message(req.lang, 'quartzJobPaused'),
        ),
    );

    app.post(
      '/sys/quartzJob/resume',
      {
        config: { permission: 'system:quartzJob:resume' },
        schema: {
          tags,
          summary: 'Resume a job from now (occurrences while paused are not run)',
          body: ZIdBody,
          response: responses(ZQuartzJob),
        },
      },
      async (req) =>
        ok(
          await jobs.resume(req.scope, req.body.id, req.lang),
          message(req.lang, 'quartzJobResumed'),
        ),
    );

    app.post(
      '/sys/quartzJob/execute',
      {
        config: { permission: 'system:quartzJob:execute' },
        schema: {
          tags,
          summary: 'Run a job now and answer with the run; 409 while it runs',
          body: ZIdBody,
          response: responses(ZQuartzJobRun),
        },
      },
      async (req) =>
        ok(
          await jobs.execute(req.scope, req.body.id, req.lang),
          message(req.lang, 'quartzJobExecuted'),
        ),
    );

    // ---------------------------------------------------------------- platform jobs

    app.get(
      '/sys/quartzJob/platform/list',
      {
        config: { permission: LIST },
        schema: {
          tags,
          summary: 'The server’s own periodic jobs (platform administrators only)',
          response: responses(z.array(ZPlatformJob)),
        },
      },
      async (req) => ok(await jobs.platformList(req.scope)),
    );

    app.get(
      '/sys/quartzJob/platform/logs',
      {
        config: { permission: LIST },
        schema: {
          tags,
          summary:
            'A platform job’s kept runs (failures; every run of jobs run at most once a minute)',
          querystring: ZPlatformJobQuery,
          response: responses(z.array(ZPlatformJobRun)),
        },
      },
      async (req) => ok(await jobs.platformLogs(req.scope, req.query.name)),
    );

    app.post(
      '/sys/quartzJob/platform/pause',
      {
        config: { permission: 'system:quartzJob:pause' },
        schema: {
          tags,
          summary: 'Pause a cluster job on every node',
          body: ZPlatformJobBody,
          response: responses(z.null()),
        },
      },
      async (req) => {
        await jobs.platformPause(req.scope, req.body.name, true);
        return ok(null, message(req.lang, 'quartzJobPaused'));
      },
    );

    app.post(
      '/sys/quartzJob/platform/resume',
      {
        config: { permission: 'system:quartzJob:resume' },
        schema: {
          tags,
          summary: 'Resume a paused cluster job',
          body: ZPlatformJobBody,
          response: responses(z.null()),
        },
      },
      async (req) => {
        await jobs.platformPause(req.scope, req.body.name, false);
        return ok(null, message(req.lang, 'quartzJobResumed'));
      },
    );

    app.post(
      '/sys/quartzJob/platform/execute',
      {
        config: { permission: 'system:quartzJob:execute' },
        schema: {
          tags,
          summary: 'Run a platform job now; not-leader when another node holds a cluster job',
          body: ZPlatformJobBody,
          response: responses(ZPlatformRunResult),
        },
      },
      async (req) =>
        ok(
          await jobs.platformExecute(req.scope, req.body.name),
          message(req.lang, 'quartzJobExecuted'),
        ),
    );
  };
}
