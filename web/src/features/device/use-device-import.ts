import type { TDeviceImportResult } from '@blrms/contracts';
import { IMPORT_FILE_MAX_BYTES } from '@blrms/contracts';
import { App } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isImportFile } from './import-file';
import { useImportDevices, useTokenOptions } from './use-devices';

export type ImportPhase =
  | { kind: 'choose' }
  | { kind: 'sending'; dryRun: boolean; uploaded: number }
  | { kind: 'previewed'; result: TDeviceImportResult }
  | { kind: 'imported'; result: TDeviceImportResult };

export const IMPORT_MAX_MB = IMPORT_FILE_MAX_BYTES / 1024 / 1024;

/**
 * The state of a device import: the token and file chosen (and which of them the user forgot),
 * and the phase, from the choice through the upload to the preview or the import's result.
 */
export function useDeviceImport(onClose: () => void) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const tokens = useTokenOptions();
  const send = useImportDevices();
  const [tokenId, setTokenId] = useState<string | undefined>();
  const [file, setFile] = useState<File | null>(null);
  const [phase, setPhase] = useState<ImportPhase>({ kind: 'choose' });
  const [missing, setMissing] = useState<{ token?: boolean; file?: boolean }>({});

  const close = () => {
    if (phase.kind === 'sending') return;
    setPhase({ kind: 'choose' });
    setFile(null);
    setMissing({});
    onClose();
  };

  const run = async (dryRun: boolean) => {
    if (!tokenId || !file) {
      setMissing({ token: !tokenId, file: !file });
      return;
    }
    setPhase({ kind: 'sending', dryRun, uploaded: 0 });
    try {
      const result = await send.mutateAsync({
        file,
        tokenId,
        dryRun,
        onProgress: (uploaded) => setPhase({ kind: 'sending', dryRun, uploaded }),
      });
      setPhase({ kind: dryRun ? 'previewed' : 'imported', result });
      if (!dryRun) void message.success(t('device.import.done', { count: result.imported }));
    } catch {
      // Reported by the HTTP client; back to the choice so the user can try again.
      setPhase({ kind: 'choose' });
    }
  };

  const chooseToken = (id: string) => {
    setTokenId(id);
    setMissing((m) => ({ ...m, token: false }));
  };

  /** Keeps a CSV or XLSX file within the size limit; says why another is refused. */
  const chooseFile = (chosen: File) => {
    const problem = isImportFile(chosen);
    if (problem === 'type') void message.error(t('device.import.wrongType'));
    else if (problem === 'size')
      void message.error(t('device.import.tooLarge', { maxMb: IMPORT_MAX_MB }));
    else {
      setFile(chosen);
      setMissing((m) => ({ ...m, file: false }));
    }
  };

  return {
    tokens,
    tokenId,
    file,
    phase,
    missing,
    close,
    run,
    chooseToken,
    chooseFile,
    removeFile: () => setFile(null),
    back: () => setPhase({ kind: 'choose' }),
  };
}

export type DeviceImportState = ReturnType<typeof useDeviceImport>;
