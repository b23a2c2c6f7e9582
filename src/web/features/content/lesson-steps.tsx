import { ExternalLink, PlayCircle } from "lucide-react";
import { type ReactNode, useId } from "react";
import { useTranslation } from "react-i18next";
import type { LessonResource, QtiResponseValue } from "../../../shared/contracts/content";
import { RichText } from "../../components/rich-text";
import { buttonClass } from "../../components/ui/form";
import { type ItemAnswer, itemKey } from "./lesson-hooks";
import { QtiItemPlayer } from "./qti-player";

/**
 * A lesson's resources as numbered steps: questions answered in place, articles to read, videos
 * to watch and apps to open.
 */
export function LessonSteps({
  resources,
  answers,
  onAnswer,
  readOnly = false,
}: {
  resources: LessonResource[];
  /** Answers by item (itemKey), put back into the questions when they show. */
  answers: ReadonlyMap<string, ItemAnswer>;
  onAnswer?: (
    resourceId: string,
    itemIdentifier: string,
    responseIdentifier: string,
    value: QtiResponseValue,
  ) => void;
  readOnly?: boolean;
}) {
  const { t } = useTranslation("content");
  let questionNumber = 0;
  return (
    <ol aria-label={t("lessons.take.steps.label")} className="space-y-6">
      {resources.map((resource, index) => (
        <li key={resource.id}>
          <Step number={index + 1} count={resources.length} title={resource.title}>
            {resource.kind === "qti" &&
              (resource.items.length === 0 ? (
                <p className="text-slate-600 dark:text-slate-300">{t("lessons.take.steps.noItems")}</p>
              ) : (
                <ol className="space-y-5">
                  {resource.items.map((item) => {
                    questionNumber += 1;
                    return (
                      <li key={item.identifier}>
                        <Question
                          number={questionNumber}
                          rawXml={item.rawXml}
                          answer={answers.get(itemKey(resource.id, item.identifier))}
                          readOnly={readOnly}
                          onChange={
                            onAnswer &&
                            ((responseIdentifier, value) =>
                              onAnswer(resource.id, item.identifier, responseIdentifier, value))
                          }
                        />
                      </li>
                    );
                  })}
                </ol>
              ))}
            {resource.kind === "article" && <RichText html={resource.html} />}
            {resource.kind === "video" && <Video url={resource.url} title={resource.title} />}
            {resource.kind === "app" && <AppLaunch app={resource.app} />}
          </Step>
        </li>
      ))}
    </ol>
  );
}

function Step({
  number,
  count,
  title,
  children,
}: {
  number: number;
  count: number;
  title: string;
  children: ReactNode;
}) {
  const { t } = useTranslation("content");
  const headingId = useId();
  return (
    <section
      aria-labelledby={headingId}
      className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6 dark:border-slate-800 dark:bg-slate-900"
    >
      <p className="text-sm font-semibold text-brand-700 dark:text-brand-100">
        {t("lessons.take.steps.step", { number, count })}
      </p>
      <h2 id={headingId} className="mt-0.5 mb-4 text-lg font-bold break-words">
        {title}
      </h2>
      {children}
    </section>
  );
}

function Question({
  number,
  rawXml,
  answer,
  readOnly,
  onChange,
}: {
  number: number;
  rawXml: string | null;
  answer: ItemAnswer | undefined;
  readOnly: boolean;
  onChange?: (responseIdentifier: string, value: QtiResponseValue) => void;
}) {
  const { t } = useTranslation("content");
  const headingId = useId();
  return (
    <article aria-labelledby={headingId} data-testid="lesson-question">
      <h3 id={headingId} className="mb-2 font-semibold">
        {t("lessons.take.steps.question", { number })}
      </h3>
      {rawXml === null ? (
        <p className="text-slate-600 dark:text-slate-300">{t("lessons.take.steps.startToAnswer")}</p>
      ) : (
        <QtiItemPlayer
          rawXml={rawXml}
          responses={answer}
          readOnly={readOnly}
          feedback={false}
          onResponseChange={onChange}
        />
      )}
    </article>
  );
}

/** A video file of this site plays here; one elsewhere opens in its own tab (pages load nothing from other sites). */
function Video({ url, title }: { url: string | null; title: string }) {
  const { t } = useTranslation("content");
  if (!url)
    return <p className="text-slate-600 dark:text-slate-300">{t("lessons.take.steps.videoMissing")}</p>;
  if (new URL(url, window.location.href).origin === window.location.origin)
    return (
      // biome-ignore lint/a11y/useMediaCaption: the video is the lesson author's; captions come with it when it has them.
      <video
        controls
        preload="metadata"
        src={url}
        aria-label={title}
        className="w-full rounded-xl bg-black"
      />
    );
  return (
    <a
      href={url}
      target="_blank"
      rel="noopener noreferrer"
      className={buttonClass("secondary", "inline-flex items-center gap-2")}
    >
      <PlayCircle aria-hidden="true" className="size-4" />
      {t("lessons.take.steps.watch")}
      <span className="sr-only">{t("lessons.take.steps.opensNewTab")}</span>
    </a>
  );
}

function AppLaunch({ app }: { app: Extract<LessonResource, { kind: "app" }>["app"] }) {
  const { t } = useTranslation("content");
  if (!app?.launchUrl)
    return <p className="text-slate-600 dark:text-slate-300">{t("lessons.take.steps.appMissing")}</p>;
  return (
    <a
      href={app.launchUrl}
      target="_blank"
      rel="noopener noreferrer"
      className={buttonClass("secondary", "inline-flex items-center gap-2")}
    >
      <ExternalLink aria-hidden="true" className="size-4" />
      {t("lessons.take.steps.openApp", { name: app.name })}
      <span className="sr-only">{t("lessons.take.steps.opensNewTab")}</span>
    </a>
  );
}
