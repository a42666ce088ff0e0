import {
  CaretRightOutlined,
  CheckOutlined,
  PauseOutlined,
  RedoOutlined,
  StopOutlined,
} from '@ant-design/icons';
import type { TCampaign } from '@blrms/contracts';
import { App, Button, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import type { CampaignAction } from './use-campaigns';
import { useCampaignAction } from './use-campaigns';

type ConfirmTexts = { title: string; content: string; done: string };

/** Asks before an action on the campaign, runs it, and says it is done. */
function useConfirmedAction(campaign: TCampaign) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const run = useCampaignAction();
  return (action: CampaignAction, texts: ConfirmTexts, danger = false) =>
    modal.confirm({
      title: texts.title,
      content: texts.content,
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger },
      onOk: async () => {
        try {
          await run.mutateAsync({ action, id: campaign.id });
          void message.success(texts.done);
        } catch {
          // Reported by the HTTP client.
        }
      },
    });
}

/** Lets the next wave start, when the campaign waits for an approval. */
export function CampaignApproveButton({ campaign: c }: { campaign: TCampaign }) {
  const { t } = useTranslation();
  const confirm = useConfirmedAction(c);
  return (
    <Button
      type="primary"
      size="small"
      icon={<CheckOutlined />}
      onClick={() =>
        confirm('approve', {
          title: t('campaign.approveTitle', { name: c.name, next: c.currentWave + 2 }),
          content: t('campaign.approveContent', { next: c.currentWave + 2 }),
          done: t('campaign.approved'),
        })
      }
      data-testid="campaign-approve"
    >
      {t('campaign.approve')}
    </Button>
  );
}

/** Pause, resume, retry the failed devices and cancel, as the campaign's state allows. */
export function CampaignControls({ campaign: c }: { campaign: TCampaign }) {
  const { t } = useTranslation();
  const confirm = useConfirmedAction(c);
  const open = c.state === 'scheduled' || c.state === 'running' || c.state === 'paused';
  return (
    <Space wrap>
      {c.state === 'running' && (
        <Button
          icon={<PauseOutlined />}
          onClick={() =>
            confirm('pause', {
              title: t('campaign.pauseTitle', { name: c.name }),
              content: t('campaign.pauseContent'),
              done: t('campaign.paused'),
            })
          }
          data-testid="campaign-pause"
        >
          {t('campaign.pause')}
        </Button>
      )}
      {c.state === 'paused' && (
        <Button
          type="primary"
          icon={<CaretRightOutlined />}
          onClick={() =>
            confirm('resume', {
              title: t('campaign.resumeTitle', { name: c.name }),
              content:
                c.pausedReason === 'failure-threshold'
                  ? t('campaign.resumeThresholdContent', {
                      wave: (c.thresholdWave ?? c.currentWave) + 1,
                    })
                  : t('campaign.resumeContent'),
              done: t('campaign.resumed'),
            })
          }
          data-testid="campaign-resume"
        >
          {t('campaign.resume')}
        </Button>
      )}
      {c.counts.failed > 0 && c.state !== 'canceled' && (
        <Button
          icon={<RedoOutlined />}
          onClick={() =>
            confirm('retry', {
              title: t('campaign.retryTitle', { count: c.counts.failed }),
              content: t('campaign.retryContent'),
              done: t('campaign.retried'),
            })
          }
          data-testid="campaign-retry"
        >
          {t('campaign.retryFailed')}
        </Button>
      )}
      {open && (
        <Button
          danger
          icon={<StopOutlined />}
          onClick={() =>
            confirm(
              'cancel',
              {
                title: t('campaign.cancelTitle', { name: c.name }),
                content: t('campaign.cancelContent'),
                done: t('campaign.canceled'),
              },
              true,
            )
          }
          data-testid="campaign-cancel"
        >
          {t('campaign.cancel')}
        </Button>
      )}
    </Space>
  );
}
