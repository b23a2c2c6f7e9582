import { useQueries } from "@tanstack/react-query";
import { Eye, Layers } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type {
  LessonResource,
  QtiResponseValue,
  SyllabusLesson,
  SyllabusResource,
} from "../../../shared/contracts/content";
import { RichText } from "../../components/rich-text";
import { EmptyState, Loading } from "../home/parts";
import { type ItemAnswer, itemKey } from "./lesson-hooks";
import { LessonSteps } from "./lesson-steps";
import { qtiItemQuery } from "./qti-api";

/**
 * A lesson as its students see it, drawn by the lesson page's own steps: questions can be tried,
 * and nothing is kept.
 */
export function LessonPreview({ lesson }: { lesson: SyllabusLesson }) {
  const { t } = useTranslation("content");
  const identifiers = [...new Set(lesson.resources.flatMap((resource) => resource.qtiItems))];
  const items = useQueries({ queries: identifiers.map((identifier) => qtiItemQuery(identifier)) });
  const [answers, setAnswers] = useState<ReadonlyMap<string, ItemAnswer>>(new Map());
  const xmlOf = new Map(identifiers.map((identifier, index) => [identifier, items[index]?.data ?? null]));
  const missing = identifiers.filter((_, index) => items[index]?.isError);

  const resources = lesson.resources.map((resource) =>
    asStudentsSee(resource, (identifier) =>
      missing.includes(identifier) ? undefined : xmlOf.get(identifier),
    ),
  );

  const onAnswer = (
    resourceId: string,
    itemIdentifier: string,
    responseIdentifier: string,
    value: QtiResponseValue,
  ) =>
    setAnswers((current) => {
      const key = itemKey(resourceId, itemIdentifier);
      return new Map(current).set(key, { ...current.get(key), [responseIdentifier]: value });
    });

  return (
    <div className="space-y-4">
      <p className="flex items-start gap-2 rounded-lg bg-brand-50 p-3 text-sm text-brand-900 dark:bg-slate-800 dark:text-slate-100">
        <Eye aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
        {t("builder.preview.note")}
      </p>
      {lesson.descriptionHtml && <RichText html={lesson.descriptionHtml} />}
      {missing.length > 0 && (
        <p
          role="alert"
          className="rounded-lg bg-red-50 p-3 text-sm text-red-800 dark:bg-red-950 dark:text-red-200"
        >
          {t("builder.preview.missingItems", { count: missing.length, ids: missing.join(", ") })}
        </p>
      )}
      {lesson.resources.length === 0 ? (
        <EmptyState icon={Layers} title={t("builder.preview.emptyTitle")}>
          {t("builder.preview.empty")}
        </EmptyState>
      ) : items.some((item) => item.isPending) ? (
        <Loading label={t("builder.preview.loading")} rows={4} />
      ) : (
        <LessonSteps resources={resources} answers={answers} onAnswer={onAnswer} />
      )}
    </div>
  );
}

/**
 * A resource as the lesson page shows it; `itemOf` gives a question's XML (null while it loads,
 * undefined when it cannot be shown).
 */
function asStudentsSee(
  resource: SyllabusResource,
  itemOf: (identifier: string) => { title: string; rawXml: string } | null | undefined,
): LessonResource {
  const { id, title } = resource;
  switch (resource.kind) {
    case "qti":
      return {
        id,
        kind: "qti",
        title,
        items: resource.qtiItems.flatMap((identifier) => {
          const item = itemOf(identifier);
          return item === undefined
            ? []
            : [{ identifier, title: item?.title ?? identifier, rawXml: item?.rawXml ?? null }];
        }),
      };
    case "article":
      return { id, kind: "article", title, html: resource.articleHtml ?? "" };
    case "video":
      return { id, kind: "video", title, url: resource.videoUrl };
    case "app":
      return {
        id,
        kind: "app",
        title,
        app: resource.appId
          ? { id: resource.appId, name: resource.appName ?? "", launchUrl: resource.launchUrl }
          : null,
      };
  }
}
