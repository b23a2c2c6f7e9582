import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ImagePlus, Send, X } from "lucide-react";
import { type FormEvent, type KeyboardEvent, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  MAX_PICTURE_BYTES,
  MAX_PICTURES_PER_MESSAGE,
  PICTURE_CONTENT_TYPES,
  type SentMessage,
} from "../../../shared/contracts/messaging";
import { failureMessage } from "../../components/ui/dialog";
import { buttonClass } from "../../components/ui/form";
import { formatNumber } from "../../lib/format";
import { sendMessage } from "./api";
import { messagingKeys } from "./keys";
import { RichTextEditor } from "./rich-text-editor";

interface Picture {
  key: string;
  file: File;
}

/** A file's bytes in base64, as the message carries them. */
function base64Of(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).slice(String(reader.result).indexOf(",") + 1));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

const megabytes = (bytes: number) => formatNumber(bytes / (1024 * 1024), 1);

/**
 * Writes a message (rich text, pictures or both) to a conversation or to a person. Ctrl+Enter (⌘+Enter)
 * sends. What the browser can tell early (too many pictures, too large, not a picture) is said at
 * once; the server checks the pictures' bytes and who may write to whom.
 */
export function Composer({
  conversationId,
  recipientId,
  label,
  onSent,
}: {
  conversationId?: string;
  recipientId?: string;
  label: string;
  onSent?: (sent: SentMessage) => void;
}) {
  const { t } = useTranslation("messaging");
  const queryClient = useQueryClient();
  const [html, setHtml] = useState("");
  const [pictures, setPictures] = useState<Picture[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const form = useRef<HTMLFormElement>(null);
  const problemId = useId();
  const picturesHintId = useId();

  const send = useMutation({
    mutationFn: async () =>
      sendMessage({
        conversationId,
        recipientId,
        bodyHtml: html,
        pictures: await Promise.all(
          pictures.map(async ({ file }) => ({ name: file.name, data: await base64Of(file) })),
        ),
      }),
    onSuccess: (sent) => {
      setHtml("");
      setPictures([]);
      setProblem(null);
      void queryClient.invalidateQueries({ queryKey: messagingKeys.conversation(sent.conversationId) });
      void queryClient.invalidateQueries({ queryKey: messagingKeys.inbox });
      onSent?.(sent);
    },
    onError: (error) => setProblem(failureMessage(error, t("composer.failed"))),
  });

  const addPictures = (files: FileList | null) => {
    const chosen = [...(files ?? [])];
    const notPictures = chosen.filter(
      (file) => !(PICTURE_CONTENT_TYPES as readonly string[]).includes(file.type),
    );
    const tooLarge = chosen.filter((file) => file.size > MAX_PICTURE_BYTES);
    if (notPictures.length > 0)
      return setProblem(t("composer.notPictures", { names: notPictures.map((f) => f.name).join(", ") }));
    if (tooLarge.length > 0)
      return setProblem(
        t("composer.tooLarge", {
          names: tooLarge.map((f) => f.name).join(", "),
          limit: megabytes(MAX_PICTURE_BYTES),
        }),
      );
    if (pictures.length + chosen.length > MAX_PICTURES_PER_MESSAGE)
      return setProblem(t("composer.tooMany", { count: MAX_PICTURES_PER_MESSAGE }));
    setProblem(null);
    setPictures((current) => [...current, ...chosen.map((file) => ({ key: crypto.randomUUID(), file }))]);
  };

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (send.isPending) return;
    const isEmpty = html.replace(/<[^>]*>/g, "").trim() === "" && pictures.length === 0;
    if (isEmpty) return setProblem(t("composer.empty"));
    send.mutate();
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      submit();
    }
  };

  return (
    // Ctrl+Enter sends from anywhere in the form, as chat apps do.
    <form ref={form} onSubmit={submit} onKeyDown={onKeyDown} className="space-y-3" aria-label={label}>
      <RichTextEditor
        label={label}
        html={html}
        onChange={setHtml}
        describedBy={problem ? problemId : undefined}
      />
      {pictures.length > 0 && (
        <ul className="flex flex-wrap gap-2" aria-label={t("composer.pictures")}>
          {pictures.map(({ key, file }) => (
            <li
              key={key}
              className="flex items-center gap-1 rounded-full border border-slate-300 bg-slate-50 py-1 pr-1 pl-3 text-sm dark:border-slate-700 dark:bg-slate-800"
            >
              <span className="max-w-48 truncate">{file.name}</span>
              <button
                type="button"
                onClick={() => setPictures((current) => current.filter((picture) => picture.key !== key))}
                className="rounded-full p-1 hover:bg-slate-200 dark:hover:bg-slate-700"
                aria-label={t("composer.removePicture", { name: file.name })}
              >
                <X aria-hidden="true" className="size-4" />
              </button>
            </li>
          ))}
        </ul>
      )}
      {problem && (
        <p id={problemId} role="alert" className="text-sm text-red-700 dark:text-red-300">
          {problem}
        </p>
      )}
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <label
            className={buttonClass(
              "secondary",
              "inline-flex cursor-pointer items-center gap-2 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-600",
            )}
          >
            <ImagePlus aria-hidden="true" className="size-4" />
            {t("composer.addPictures")}
            <input
              type="file"
              multiple
              accept={PICTURE_CONTENT_TYPES.join(",")}
              aria-describedby={picturesHintId}
              className="sr-only"
              onChange={(event) => {
                addPictures(event.target.files);
                event.target.value = "";
              }}
            />
          </label>
          <p id={picturesHintId} className="mt-1 text-xs text-slate-600 dark:text-slate-400">
            {t("composer.picturesHint", {
              count: MAX_PICTURES_PER_MESSAGE,
              limit: megabytes(MAX_PICTURE_BYTES),
            })}
          </p>
        </div>
        <button
          type="submit"
          disabled={send.isPending}
          className={buttonClass("primary", "inline-flex items-center gap-2")}
        >
          <Send aria-hidden="true" className="size-4" />
          {send.isPending ? t("composer.sending") : t("composer.send")}
        </button>
      </div>
    </form>
  );
}
