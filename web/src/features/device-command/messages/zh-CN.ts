import type { Widen } from '../../../shared/i18n-catalog';

/**
 * Chinese texts of this feature, loaded with the pages that show it (app/i18n/feature-catalogs.ts).
 * The English file must have exactly these keys (checked by type and test).
 */
const zhCN = {
  deviceCommand: {
    ping: 'Ping',
    getConfig: '读取配置',
    reboot: '重启',
    rebootTitle: '重启“{{name}}”？',
    rebootContent: '设备会短暂离线，重启后自动重新连接。',
    offlineHint: '设备当前离线，命令只能发给在线设备。',
    refused: '命令未发送',
    recent: '最近的命令',
    empty: '还没有发送过命令',
    time: '发送时间',
    method: '方法',
    stateLabel: '状态',
    replyIn: '耗时',
    ms: '{{ms}} 毫秒',
    outcome: '结果',
    by: '发送人',
    params: '参数',
    result: '结果',
    waiting: '等待设备应答…',
    timedOut: '{{seconds}} 秒内没有应答',
    answeredLate: '超时后才应答',
    lateReply: '设备在超时后（{{time}}）才应答：',
    failed: '设备返回失败',
    noResult: '（无返回内容）',
    state: {
      sent: '已发送',
      succeeded: '成功',
      failed: '失败',
      timeout: '超时',
    },
    custom: {
      button: '自定义命令',
      title: '发送自定义命令',
      send: '发送',
      method: '方法',
      methodHint: '设备固件支持的方法名，如 set_led',
      methodRequired: '请填写方法',
      methodRule: '以小写字母开头，只能包含小写字母、数字、_ 和 .',
      params: '参数（JSON）',
      paramsHint: '一个 JSON 对象，可留空',
      paramsRule: {
        json: '不是有效的 JSON',
        object: '必须是 JSON 对象，如 {"on": true}',
      },
      timeout: '超时',
      timeoutRequired: '请填写超时',
      seconds: '秒',
    },
  },
} as const;

export type Messages = Widen<typeof zhCN>;

export default zhCN;
