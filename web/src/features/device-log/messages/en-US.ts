import type { Messages } from './zh-CN';

const enUS: Messages = {
  deviceLog: {
    retention: {
      button: 'Data retention',
      title: 'Device data retention',
      days: 'Keep for',
      unit: 'days',
      hint: 'Telemetry and events older than this are deleted ({{min}} to {{max}} days). Applies to the whole platform.',
      rule: 'Enter a whole number from {{min}} to {{max}}',
    },
  },
};

export default enUS;
