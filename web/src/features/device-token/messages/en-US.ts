import type { Messages } from './zh-CN';

const enUS: Messages = {
  deviceToken: {
    title: 'Token keys',
    name: 'Name',
    namePlaceholder: 'e.g. Production line 1',
    code: 'Code',
    key: 'Key',
    reveal: 'Show key',
    hide: 'Hide key',
    copyKey: 'Copy key',
    autoRegister: 'Auto-registration',
    autoRegisterHint:
      'When on, an unknown SN that connects with this key is registered as a device',
    enabled: 'Enabled',
    enabledHint: 'While disabled, devices cannot connect with this key',
    deviceCount: 'Devices',
    addTitle: 'Add token key',
    editTitle: 'Edit token key',
    regenerate: 'Regenerate',
    regenerateTitle: 'Regenerate the key?',
    regenerateContent:
      'The old key stops working at once; devices using it need the new key to connect.',
    deleteTitle: 'Delete token key "{{name}}"?',
    deleteContent:
      'A token key that devices still use cannot be deleted; delete those devices first.',
    disableTitle: 'Disable token key "{{name}}"?',
    disableContent: 'Devices that use this key cannot connect until it is enabled again.',
    enabledDone: 'Enabled',
    disabledDone: 'Disabled',
    newKeyTitle: 'Token key created',
    newKeyTitleRegenerated: 'Key regenerated',
    newKeyHint:
      'Devices connect with this key (their MQTT password). Keep it secret; users allowed to reveal keys can show it again later.',
    newKeyHintRegenerated:
      'The old key no longer works. Configure the new key on the devices that use this token.',
    connectAs: 'A device’s MQTT client id and username are its tag code:',
    removedSns: 'Removed devices',
    removedTitle: 'Devices removed from "{{name}}"',
    removedHint:
      'Devices deleted from this token are refused when they connect again (device-removed), even with auto-registration on. Allow an SN again to let it register; adding the device by hand also allows it.',
    removedSn: 'SN',
    removedAt: 'Removed',
    removedBy: 'Removed by',
    allowAgain: 'Allow again',
    allowAgainTitle: 'Allow SN "{{sn}}" to register again?',
    allowedDone: '{{sn}} may register again',
    removedEmpty: 'No removed devices',
    snSearch: 'Search SN',
  },
};

export default enUS;
