import { defineMessages } from '../../platform/http/messages.js';

/** What this module's services and routes say to a client, in both languages. */
export const positionMessages = defineMessages({
  orgPositionCodeTaken: {
    'zh-CN': 'code: 职务编码已存在',
    'en-US': 'code: this position code already exists',
  },
  orgPostRankInvalid: {
    'zh-CN': 'postRank: 不是有效的职级',
    'en-US': 'postRank: not a valid rank',
  },
});

type PositionMessages = typeof positionMessages;

declare module '../../platform/http/messages.js' {
  interface MessageCatalogue extends PositionMessages {}
}
