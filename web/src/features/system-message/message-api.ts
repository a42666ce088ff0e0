import type {
  TMessage,
  TMessagePage,
  TMessageQuery,
  TMessageQueued,
  TMessageTemplate,
  TMessageTemplateInputIn,
  TMessageTemplatePage,
  TMessageTemplatePreview,
  TMessageTemplatePreviewRequest,
  TMessageTemplateQuery,
  TMessageTestSend,
  TWebhook,
  TWebhookEdit,
  TWebhookInput,
  TWebhookNetwork,
  TWebhookWithSecret,
} from '@blrms/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { http, request } from '../../api/client';

export type TemplateParams = Omit<TMessageTemplateQuery, '_t'>;
export type MessageParams = Omit<TMessageQuery, '_t'>;

export const TEMPLATES_KEY = 'messageTemplates';
export const MESSAGES_KEY = 'messages';
export const WEBHOOKS_KEY = 'messageWebhooks';

const T = '/sys/message/sysMessageTemplate';
const M = '/sys/message/sysMessage';
const W = '/sys/message/webhook';

export const messageApi = {
  templates: (params: TemplateParams) => http.get<TMessageTemplatePage>(`${T}/list`, params),
  addTemplate: (body: TMessageTemplateInputIn) =>
    request<TMessageTemplate>('POST', `${T}/add`, { body }),
  editTemplate: (body: TMessageTemplateInputIn & { id: string }) =>
    request<TMessageTemplate>('PUT', `${T}/edit`, { body }),
  deleteTemplate: (id: string) => request<null>('DELETE', `${T}/delete`, { params: { id } }),
  preview: (body: TMessageTemplatePreviewRequest) =>
    request<TMessageTemplatePreview>('POST', `${T}/preview`, { body }),
  sendTest: (body: TMessageTestSend) => request<TMessageQueued>('POST', `${T}/sendTest`, { body }),
  messages: (params: MessageParams) => http.get<TMessagePage>(`${M}/list`, params),
  resend: (id: string) => request<TMessage>('POST', `${M}/resend`, { body: { id } }),
  webhooks: () => http.get<TWebhook[]>(`${W}/list`),
  addWebhook: (body: TWebhookInput) => request<TWebhookWithSecret>('POST', `${W}/add`, { body }),
  editWebhook: (body: TWebhookEdit) => request<TWebhook>('PUT', `${W}/edit`, { body }),
  deleteWebhook: (id: string) => request<null>('DELETE', `${W}/delete`, { params: { id } }),
  rotateSecret: (id: string) =>
    request<TWebhookWithSecret>('POST', `${W}/rotateSecret`, { body: { id } }),
  testWebhook: (id: string) => request<TMessage>('POST', `${W}/test`, { body: { id } }),
  network: () => http.get<TWebhookNetwork>(`${W}/network`),
  setNetwork: (body: TWebhookNetwork) => request<TWebhookNetwork>('PUT', `${W}/network`, { body }),
};

export function useTemplates(params: TemplateParams) {
  return useQuery({
    queryKey: [TEMPLATES_KEY, params],
    queryFn: () => messageApi.templates(params),
    placeholderData: keepPreviousData,
  });
}

export function useMessages(params: MessageParams) {
  return useQuery({
    queryKey: [MESSAGES_KEY, params],
    queryFn: () => messageApi.messages(params),
    placeholderData: keepPreviousData,
  });
}

export function useWebhooks() {
  return useQuery({ queryKey: [WEBHOOKS_KEY], queryFn: messageApi.webhooks });
}
