import type { TOssFile } from '@blrms/contracts';
import { Alert, Modal, Spin, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatBytes } from '../../shared/file-size';
import { ossFileLink } from './use-oss-files';

/** Text beyond this is not shown: a preview is for a look, the download is for the whole. */
const TEXT_PREVIEW_BYTES = 256 * 1024;

/** The first `limit` bytes of a response as UTF-8; the rest is not fetched. */
async function readText(res: Response, limit: number): Promise<{ text: string; cut: boolean }> {
  const reader = res.body?.getReader();
  if (!reader) return { text: '', cut: false };
  const chunks: Uint8Array[] = [];
  let size = 0;
  let cut = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.length;
    if (size >= limit) {
      cut = true;
      await reader.cancel();
      break;
    }
  }
  const bytes = new Uint8Array(Math.min(size, limit));
  let at = 0;
  for (const chunk of chunks) {
    const part = chunk.subarray(0, bytes.length - at);
    bytes.set(part, at);
    at += part.length;
  }
  return { text: new TextDecoder().decode(bytes), cut };
}

type Loaded = { kind: 'image' | 'pdf'; url: string } | { kind: 'text'; text: string; cut: boolean };

/** A fresh signed link every time (they expire), then the text itself for a text file. */
async function loadPreview(file: TOssFile): Promise<Loaded> {
  const { url } = await ossFileLink(file.id, 'preview');
  if (file.preview !== 'text') return { kind: file.preview === 'pdf' ? 'pdf' : 'image', url };
  const res = await fetch(url);
  if (!res.ok) throw new Error(`preview answered ${res.status}`);
  return { kind: 'text', ...(await readText(res, TEXT_PREVIEW_BYTES)) };
}

function PreviewBody({ file }: { file: TOssFile }) {
  const { t } = useTranslation();
  const [broken, setBroken] = useState(false);
  const loaded = useQuery({
    queryKey: ['oss-files', 'preview', file.id],
    queryFn: () => loadPreview(file),
    gcTime: 0,
    staleTime: 0,
    retry: false,
  });
  if (loaded.isError || broken) {
    return <Alert type="error" showIcon message={t('ossFile.previewFailed')} />;
  }
  const shown = loaded.data;
  if (!shown) return <Spin />;
  switch (shown.kind) {
    case 'image':
      return (
        <img
          src={shown.url}
          alt={file.name}
          style={{ display: 'block', maxWidth: '100%', maxHeight: '70vh', margin: '0 auto' }}
          onError={() => setBroken(true)}
          data-testid="oss-preview-image"
        />
      );
    case 'pdf':
      return (
        <iframe
          src={shown.url}
          title={file.name}
          style={{ width: '100%', height: '70vh', border: 0 }}
          data-testid="oss-preview-pdf"
        />
      );
    case 'text':
      return (
        <>
          {shown.cut && (
            <Typography.Paragraph type="secondary">
              {t('ossFile.textCut', { limit: formatBytes(TEXT_PREVIEW_BYTES) })}
            </Typography.Paragraph>
          )}
          <pre
            style={{
              maxHeight: '70vh',
              overflow: 'auto',
              whiteSpace: 'pre-wrap',
              wordBreak: 'break-word',
              margin: 0,
            }}
            data-testid="oss-preview-text"
          >
            {shown.text}
          </pre>
        </>
      );
  }
}

/**
 * The preview of an image, a PDF or a text file through a signed link the server made for a
 * preview; it serves those types only, inline under a policy that lets them run nothing. Text
 * is read here and shown as text (React escapes it), never as a page.
 */
export function OssFilePreviewModal({
  file,
  onClose,
}: {
  file: TOssFile | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      open={file !== null}
      title={file ? t('ossFile.previewTitle', { name: file.name }) : ''}
      onCancel={onClose}
      footer={null}
      width={880}
      destroyOnHidden
      data-testid="oss-preview-modal"
    >
      {file && <PreviewBody key={file.id} file={file} />}
    </Modal>
  );
}
