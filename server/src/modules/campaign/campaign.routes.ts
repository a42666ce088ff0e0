import {
  ZBatchResult,
  ZCampaign,
  ZCampaignAction,
  ZCampaignCreate,
  ZCampaignDevicePage,
  ZCampaignDeviceQuery,
  ZCampaignPage,
  ZCampaignPreview,
  ZCampaignPreviewBody,
  ZCampaignQuery,
  ZIdQuery,
} from '@blrms/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok, responses } from '../../platform/http/envelope.js';
import { message } from '../../platform/http/messages.js';
import type { CampaignService } from './campaign.service.js';

const tags = ['campaign'];

export function campaignRoutes(campaigns: CampaignService): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/campaign/preview',
      {
        config: { permission: 'campaign:add' },
        schema: {
          tags,
          summary: 'How many devices a target names (and leaves out), before creating',
          body: ZCampaignPreviewBody,
          response: responses(ZCampaignPreview),
        },
      },
      async (req) => ok(await campaigns.preview(req.scope, req.body)),
    );

    app.post(
      '/campaign/add',
      {
        config: { permission: 'campaign:add' },
        schema: {
          tags,
          summary:
            'Start a firmware upgrade or bulk configuration campaign (configuration also needs device:config)',
          body: ZCampaignCreate,
          response: responses(ZCampaign),
        },
      },
      async (req) => {
        const campaign = await campaigns.add(req.scope, req.body);
        const said = campaign.state === 'scheduled' ? 'campaignScheduled' : 'campaignStarted';
        return ok(campaign, message(req.lang, said));
      },
    );

    app.get(
      '/campaign/list',
      {
        config: { permission: 'campaign:list' },
        schema: {
          tags,
          summary: 'Campaigns of the company, newest first, with their counts',
          querystring: ZCampaignQuery,
          response: responses(ZCampaignPage),
        },
      },
      async (req) => ok(await campaigns.list(req.scope, req.query)),
    );

    app.get(
      '/campaign/detail',
      {
        config: { permission: 'campaign:list' },
        schema: {
          tags,
          summary: 'One campaign with its counts',
          querystring: ZIdQuery,
          response: responses(ZCampaign),
        },
      },
      async (req) => ok(await campaigns.detail(req.scope, req.query.id)),
    );

    app.get(
      '/campaign/devices',
      {
        config: { permission: 'campaign:list' },
        schema: {
          tags,
          summary: 'The devices of a campaign with their states (data rules apply)',
          querystring: ZCampaignDeviceQuery,
          response: responses(ZCampaignDevicePage),
        },
      },
      async (req) => ok(await campaigns.devicePage(req.scope, req.query)),
    );

    app.post(
      '/campaign/pause',
      {
        config: { permission: 'campaign:control' },
        schema: {
          tags,
          summary: 'Start no more devices; those running carry on',
          body: ZCampaignAction,
          response: responses(ZCampaign),
        },
      },
      async (req) =>
        ok(await campaigns.pause(req.scope, req.body.id), message(req.lang, 'campaignPaused')),
    );

    app.post(
      '/campaign/resume',
      {
        config: { permission: 'campaign:control' },
        schema: {
          tags,
          summary:
            'Resume a paused campaign; after the failure threshold paused it, accepts the failures of its waves begun',
          body: ZCampaignAction,
          response: responses(ZCampaign),
        },
      },
      async (req) =>
        ok(await campaigns.resume(req.scope, req.body.id), message(req.lang, 'campaignResumed')),
    );

    app.post(
      '/campaign/approve',
      {
        config: { permission: 'campaign:control' },
        schema: {
          tags,
          summary: 'Let the next wave start, when the campaign awaits approval (gate: approval)',
          body: ZCampaignAction,
          response: responses(ZCampaign),
        },
      },
      async (req) =>
        ok(await campaigns.approve(req.scope, req.body.id), message(req.lang, 'campaignApproved')),
    );

    app.post(
      '/campaign/cancel',
      {
        config: { permission: 'campaign:control' },
        schema: {
          tags,
          summary: 'Cancel every device not finished; running devices are told nothing more',
          body: ZCampaignAction,
          response: responses(ZCampaign),
        },
      },
      async (req) =>
        ok(await campaigns.cancel(req.scope, req.body.id), message(req.lang, 'campaignCanceled')),
    );

    app.post(
      '/campaign/retry',
      {
        config: { permission: 'campaign:control' },
        schema: {
          tags,
          summary: 'Queue the failed devices again, each with a new job id',
          body: ZCampaignAction,
          response: responses(ZBatchResult),
        },
      },
      async (req) =>
        ok(await campaigns.retry(req.scope, req.body.id), message(req.lang, 'campaignRetried')),
    );
  };
}
