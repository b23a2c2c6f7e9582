import { EditorContent, useEditor, useEditorState } from "@tiptap/react";
import StarterKit from "@tiptap/starter-kit";
import {
  Bold,
  Heading2,
  Heading3,
  Italic,
  List,
  ListOrdered,
  type LucideIcon,
  Quote,
  Redo2,
  Undo2,
} from "lucide-react";
import { useEffect, useId } from "react";
import { useTranslation } from "react-i18next";

/**
 * The rich-text editor of articles and lesson descriptions (Tiptap's StarterKit), loaded only when
 * a form shows it. What it writes is HTML; the server keeps only what its sanitiser allows.
 */
export default function ArticleEditor({
  label,
  html,
  onChange,
  describedBy,
}: {
  label: string;
  html: string;
  onChange: (html: string) => void;
  /** The id of a hint or error that screen readers read with the editor. */
  describedBy?: string;
}) {
  const { t } = useTranslation("content");
  const labelId = useId();
  const editor = useEditor({
    extensions: [
      StarterKit.configure({
        heading: { levels: [2, 3] },
        codeBlock: false,
        link: { openOnClick: false, autolink: true, protocols: ["https", "mailto"] },
      }),
    ],
    content: html,
    editorProps: {
      attributes: {
        role: "textbox",
        "aria-multiline": "true",
        "aria-labelledby": labelId,
        ...(describedBy ? { "aria-describedby": describedBy } : {}),
        class: "rich-text min-h-40 max-h-[50vh] overflow-y-auto px-3 py-2 text-base focus:outline-none",
      },
    },
    onUpdate: ({ editor: current }) => onChange(current.isEmpty ? "" : current.getHTML()),
  });

  // A new value from outside (another lesson chosen, a reset after saving) replaces the text.
  useEffect(() => {
    if (!editor || editor.isDestroyed) return;
    const current = editor.isEmpty ? "" : editor.getHTML();
    if (current !== html) editor.commands.setContent(html, { emitUpdate: false });
  }, [editor, html]);

  const active = useEditorState({
    editor,
    selector: ({ editor: current }) => ({
      bold: current?.isActive("bold") ?? false,
      italic: current?.isActive("italic") ?? false,
      h2: current?.isActive("heading", { level: 2 }) ?? false,
      h3: current?.isActive("heading", { level: 3 }) ?? false,
      bullets: current?.isActive("bulletList") ?? false,
      numbers: current?.isActive("orderedList") ?? false,
      quote: current?.isActive("blockquote") ?? false,
      canUndo: current?.can().undo() ?? false,
      canRedo: current?.can().redo() ?? false,
    }),
  });

  const tools: { key: string; icon: LucideIcon; pressed?: boolean; disabled?: boolean; run: () => void }[] =
    editor
      ? [
          {
            key: "bold",
            icon: Bold,
            pressed: active?.bold,
            run: () => editor.chain().focus().toggleBold().run(),
          },
          {
            key: "italic",
            icon: Italic,
            pressed: active?.italic,
            run: () => editor.chain().focus().toggleItalic().run(),
          },
          {
            key: "heading",
            icon: Heading2,
            pressed: active?.h2,
            run: () => editor.chain().focus().toggleHeading({ level: 2 }).run(),
          },
          {
            key: "subheading",
            icon: Heading3,
            pressed: active?.h3,
            run: () => editor.chain().focus().toggleHeading({ level: 3 }).run(),
          },
          {
            key: "bullets",
            icon: List,
            pressed: active?.bullets,
            run: () => editor.chain().focus().toggleBulletList().run(),
          },
          {
            key: "numbers",
            icon: ListOrdered,
            pressed: active?.numbers,
            run: () => editor.chain().focus().toggleOrderedList().run(),
          },
          {
            key: "quote",
            icon: Quote,
            pressed: active?.quote,
            run: () => editor.chain().focus().toggleBlockquote().run(),
          },
          {
            key: "undo",
            icon: Undo2,
            disabled: !active?.canUndo,
            run: () => editor.chain().focus().undo().run(),
          },
          {
            key: "redo",
            icon: Redo2,
            disabled: !active?.canRedo,
            run: () => editor.chain().focus().redo().run(),
          },
        ]
      : [];

  return (
    <div>
      <span id={labelId} className="text-sm font-medium">
        {label}
      </span>
      <div className="mt-1 rounded-lg border border-slate-300 bg-white shadow-sm focus-within:border-brand-600 focus-within:outline-2 focus-within:outline-brand-600 dark:border-slate-700 dark:bg-slate-950">
        <div
          role="toolbar"
          aria-label={t("builder.editor.toolbar", { label })}
          className="flex flex-wrap gap-0.5 border-b border-slate-200 p-1 dark:border-slate-800"
        >
          {tools.map(({ key, icon: Icon, pressed, disabled, run }) => (
            <button
              key={key}
              type="button"
              title={t(`builder.editor.${key}`)}
              aria-label={t(`builder.editor.${key}`)}
              aria-pressed={pressed === undefined ? undefined : pressed}
              disabled={disabled}
              onClick={run}
              className="rounded-md p-2 text-slate-700 hover:bg-slate-100 disabled:opacity-40 aria-pressed:bg-brand-100 aria-pressed:text-brand-900 dark:text-slate-200 dark:hover:bg-slate-800 dark:aria-pressed:bg-brand-900 dark:aria-pressed:text-brand-50"
            >
              <Icon aria-hidden="true" className="size-4" />
            </button>
          ))}
        </div>
        <EditorContent editor={editor} />
      </div>
    </div>
  );
}
