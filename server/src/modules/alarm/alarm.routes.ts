import {
  ZAlarm,
  ZAlarmAcknowledge,
  ZAlarmBulkResult,
  ZAlarmClear,
  ZAlarmCounts,
  ZAlarmExportQuery,
  ZAlarmPage,
  ZAlarmQuery,
  ZAlarmRule,
  ZAlarmRuleEdit,
  ZAlarmRuleEnable,
  ZAlarmRuleInput,
  ZAlarmRulePage,
  ZAlarmRuleQuery,
  ZId,
} from '@blrms/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok, responses } from '../../platform/http/envelope.js';
import { message } from '../../platform/http/messages.js';
import { attachment } from '../../platform/sheet/sheet-writer.js';
import type { AlarmRuleService } from './alarm-rule.service.js';
import type { AlarmService } from './alarm.service.js';

const tags = ['alarm'];
const ZIdQuery = z.object({ id: ZId, _t: z.string().optional() }).strict();
const LIST = 'alarm:list';
const RULE_LIST = 'alarm:rule:list';

export function alarmRoutes(alarms: AlarmService, rules: AlarmRuleService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/alarm/rule/list',
      {
        config: { permission: RULE_LIST },
        schema: {
          tags,
          summary: 'The company’s alarm rules, newest first',
          querystring: ZAlarmRuleQuery,
          response: responses(ZAlarmRulePage),
        },
      },
      async (req) => ok(await rules.list(req.scope, req.query)),
    );

    app.get(
      '/alarm/rule/queryById',
      {
        config: { permission: RULE_LIST },
        schema: {
          tags,
          summary: 'One alarm rule',
          querystring: ZIdQuery,
          response: responses(ZAlarmRule),
        },
      },
      async (req) => ok(await rules.get(req.scope, req.query.id)),
    );

    app.post(
      '/alarm/rule/add',
      {
        config: { permission: 'alarm:rule:add' },
        schema: {
          tags,
          summary: 'Add an alarm rule; every node evaluates it from then on',
          body: ZAlarmRuleInput,
          response: responses(ZAlarmRule),
        },
      },
      async (req) => ok(await rules.add(req.scope, req.body), message(req.lang, 'alarmRuleSaved')),
    );

    app.put(
      '/alarm/rule/edit',
      {
        config: { permission: 'alarm:rule:edit' },
        schema: {
          tags,
          summary: 'Edit an alarm rule; its open alarms are cleared (rule-changed)',
          body: ZAlarmRuleEdit,
          response: responses(ZAlarmRule),
        },
      },
      async (req) => ok(await rules.edit(req.scope, req.body), message(req.lang, 'alarmRuleSaved')),
    );

    app.put(
      '/alarm/rule/enable',
      {
        config: { permission: 'alarm:rule:edit' },
        schema: {
          tags,
          summary: 'Enable or disable an alarm rule; disabling clears its open alarms',
          body: ZAlarmRuleEnable,
          response: responses(ZAlarmRule),
        },
      },
      async (req) =>
        ok(await rules.enable(req.scope, req.body), message(req.lang, 'alarmRuleSaved')),
    );

    app.delete(
      '/alarm/rule/delete',
      {
        config: { permission: 'alarm:rule:delete' },
        schema: {
          tags,
          summary: 'Delete an alarm rule; its open alarms are cleared, its alarms kept',
          querystring: ZIdQuery,
          response: responses(z.null()),
        },
      },
      async (req) => {
        await rules.delete(req.scope, req.query.id);
        return ok(null, message(req.lang, 'alarmRuleDeleted'));
      },
    );

    app.get(
      '/alarm/list',
      {
        config: { permission: LIST },
        schema: {
          tags,
          summary: 'Alarms of the devices you may see, by last time (newest first by default)',
          querystring: ZAlarmQuery,
          response: responses(ZAlarmPage),
        },
      },
      async (req) => ok(await alarms.list(req.scope, req.query, req.lang)),
    );

    app.get(
      '/alarm/queryById',
      {
        config: { permission: LIST },
        schema: { tags, summary: 'One alarm', querystring: ZIdQuery, response: responses(ZAlarm) },
      },
      async (req) => ok(await alarms.get(req.scope, req.query.id, req.lang)),
    );

    app.get(
      '/alarm/counts',
      {
        config: { permission: LIST },
        schema: {
          tags,
          summary: 'Open and unacknowledged alarms by severity',
          querystring: z.object({ _t: z.string().optional() }).strict(),
          response: responses(ZAlarmCounts),
        },
      },
      async (req) => ok(await alarms.counts(req.scope)),
    );

    app.put(
      '/alarm/acknowledge',
      {
        config: { permission: 'alarm:ack' },
        schema: {
          tags,
          summary: 'Acknowledge active alarms (others are counted as skipped); stops reminders',
          body: ZAlarmAcknowledge,
          response: responses(ZAlarmBulkResult),
        },
      },
      async (req) => {
        const result = await alarms.acknowledge(req.scope, req.body);
        return ok(result, message(req.lang, 'alarmAcknowledged', { changed: result.changed }));
      },
    );

    app.put(
      '/alarm/clear',
      {
        config: { permission: 'alarm:clear' },
        schema: {
          tags,
          summary: 'Clear open alarms by hand, with a comment',
          body: ZAlarmClear,
          response: responses(ZAlarmBulkResult),
        },
      },
      async (req) => {
        const result = await alarms.clear(req.scope, req.body);
        return ok(result, message(req.lang, 'alarmCleared', { changed: result.changed }));
      },
    );

    app.get(
      '/alarm/exportXls',
      {
        config: { permission: 'alarm:export' },
        schema: {
          tags,
          summary: 'The alarms of the current filter as an XLSX or CSV attachment (streamed)',
          querystring: ZAlarmExportQuery,
        },
      },
      async (req, reply) => {
        const file = alarms.exportFile(req.scope, req.query, req.lang);
        return reply
          .header('content-type', file.contentType)
          .header('content-disposition', attachment(file.filename))
          .header('cache-control', 'no-store')
          .send(file.body);
      },
    );
  };
}
