import { describe, expect, it } from 'vitest';
import {
  ANNOUNCEMENT_CONTENT_MAX,
  ZAnnouncementCreate,
  ZAnnouncementQuery,
  ZClientMessage,
  ZMarkReadRequest,
  ZServerMessage,
} from './index.js';

const draft = { titile: 'Hello', msgContent: '<p>x</p>', priority: 'H', msgType: 'all' };

describe('announcement contracts', () => {
  it('accepts a minimal draft and fills the defaults', () => {
    expect(ZAnnouncementCreate.parse(draft)).toMatchObject({
      msgCategory: '1',
      userIds: [],
      openType: null,
    });
  });

  it('refuses unknown fields, unknown priorities and oversized content', () => {
    expect(ZAnnouncementCreate.safeParse({ ...draft, sendStatus: '1' }).success).toBe(false);
    expect(ZAnnouncementCreate.safeParse({ ...draft, priority: 'X' }).success).toBe(false);
    expect(
      ZAnnouncementCreate.safeParse({
        ...draft,
        msgContent: 'x'.repeat(ANNOUNCEMENT_CONTENT_MAX + 1),
      }).success,
    ).toBe(false);
    expect(ZAnnouncementCreate.safeParse({ ...draft, titile: '   ' }).success).toBe(false);
  });

  it('takes only ids for the read mark and whitelisted sort columns', () => {
    expect(ZMarkReadRequest.safeParse({ anntId: "x' or '1'='1" }).success).toBe(false);
    expect(ZAnnouncementQuery.safeParse({ column: 'updatexml(1)' }).success).toBe(false);
  });

  it('types websocket messages by `type` and refuses the ones it does not know', () => {
    const id = 'a'.repeat(32);
    expect(ZServerMessage.parse({ type: 'topic', msgId: id, msgTxt: 't', cmd: 'publish' })).toEqual(
      { type: 'topic', msgId: id, msgTxt: 't', cmd: 'publish' },
    );
    expect(
      ZServerMessage.safeParse({ type: 'user', msgId: id, msgTxt: 't', cmd: 'x' }).success,
    ).toBe(false);
    expect(ZServerMessage.safeParse({ type: 'device' }).success).toBe(false);
    expect(ZClientMessage.parse({ type: 'heartbeat' })).toEqual({ type: 'heartbeat' });
  });
});
