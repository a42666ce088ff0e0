import {
  BoldOutlined,
  ClearOutlined,
  ItalicOutlined,
  LinkOutlined,
  OrderedListOutlined,
  UnderlineOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons';
import { Button, Space, Tooltip } from 'antd';
import { useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import './rich-text-editor.css';

type Props = {
  value?: string;
  onChange?: (html: string) => void;
  id?: string;
};

type Command = {
  key: 'bold' | 'italic' | 'underline' | 'bulletList' | 'orderedList' | 'link' | 'clear';
  icon: ReactNode;
  command: string;
};

const COMMANDS: Command[] = [
  { key: 'bold', icon: <BoldOutlined />, command: 'bold' },
  { key: 'italic', icon: <ItalicOutlined />, command: 'italic' },
  { key: 'underline', icon: <UnderlineOutlined />, command: 'underline' },
  { key: 'bulletList', icon: <UnorderedListOutlined />, command: 'insertUnorderedList' },
  { key: 'orderedList', icon: <OrderedListOutlined />, command: 'insertOrderedList' },
  { key: 'link', icon: <LinkOutlined />, command: 'createLink' },
  { key: 'clear', icon: <ClearOutlined />, command: 'removeFormat' },
];

/**
 * A small rich-text field on contentEditable: bold, italic, underline, lists, links and clearing.
 * It produces plain HTML that the server sanitizes with its allowlist (so pasting is safe too).
 * Its own lazy chunk: the announcement form is the only place that needs it.
 */
export default function RichTextEditor({ value, onChange, id }: Props) {
  const { t } = useTranslation();
  const area = useRef<HTMLDivElement>(null);

  // The field is uncontrolled while typing; outside changes (reset, loading a draft) replace it.
  useEffect(() => {
    const el = area.current;
    if (el && el.innerHTML !== (value ?? '')) el.innerHTML = value ?? '';
  }, [value]);

  const emit = () => onChange?.(area.current?.innerHTML ?? '');
  const exec = (command: string, argument?: string) => {
    area.current?.focus();
    document.execCommand(command, false, argument);
    emit();
  };

  const run = (c: Command) => {
    if (c.command !== 'createLink') return exec(c.command);
    const href = window.prompt(t('announcement.editor.linkPrompt'), 'https://');
    if (href && /^https?:\/\//i.test(href)) exec('createLink', href);
  };

  return (
    <div className="rte">
      <Space.Compact className="rte__toolbar">
        {COMMANDS.map((c) => (
          <Tooltip key={c.key} title={t(`announcement.editor.${c.key}`)}>
            <Button
              size="small"
              icon={c.icon}
              aria-label={t(`announcement.editor.${c.key}`)}
              // Keeps the selection in the text while the button is pressed.
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => run(c)}
            />
          </Tooltip>
        ))}
      </Space.Compact>
      <div
        id={id}
        ref={area}
        className="rte__area"
        contentEditable
        role="textbox"
        aria-multiline="true"
        suppressContentEditableWarning
        onInput={emit}
        onBlur={emit}
        data-testid="announcement-editor"
      />
    </div>
  );
}
