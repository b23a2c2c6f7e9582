import { Bookmark, BookmarkCheck, ExternalLink } from "lucide-react";
import { type ReactNode, useId } from "react";
import { useTranslation } from "react-i18next";
import type { LessonResource, LessonViewResource, QtiResponseValue } from "../../../shared/contracts/content";
import { RichText } from "../../components/rich-text";
import { failureMessage } from "../../components/ui/dialog";
import { buttonClass } from "../../components/ui/form";
import { type ItemAnswer, itemKey, useKeepForLater } from "./lesson-hooks";
import { QtiItemPlayer } from "./qti-player";
import { VideoEmbed } from "./video-embed";

/**
 * A lesson's resources as numbered steps: questions answered in place, articles to read, videos
 * to watch and apps to open. `actionOf` puts a control beside a step's title.
 */
export function LessonSteps<Resource extends LessonResource>({
  resources,
  answers,
  onAnswer,
  readOnly = false,
  actionOf,
}: {
  resources: Resource[];
  /** Answers by item (itemKey), put back into the questions when they show. */
  answers: ReadonlyMap<string, ItemAnswer>;
  onAnswer?: (
    resourceId: string,
    itemIdentifier: string,
    responseIdentifier: string,
    value: QtiResponseValue,
  ) => void;
  readOnly?: boolean;
  actionOf?: (resource: Resource) => ReactNode;
}) {
  const { t } = useTranslation("content");
  let questionNumber = 0;
  return (
    <ol aria-label={t("lessons.take.steps.label")} className="space-y-6">
      {resources.map((resource, index) => (
        <li key={resource.id}>
          <Step
            number={index + 1}
            count={resources.length}
            title={resource.title}
            action={actionOf?.(resource)}
          >
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
  action,
  children,
}: {
  number: number;
  count: number;
  title: string;
  action?: ReactNode;
  children: ReactNode;
}) {
  const { t } = useTranslation("content");
  const headingId = useId();
  return (
    <section
      aria-labelledby={headingId}
      className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6 dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="mb-4 flex flex-wrap items-start justify-between gap-x-4 gap-y-2">
        <div className="min-w-0">
          <p className="text-sm font-semibold text-brand-700 dark:text-brand-100">
            {t("lessons.take.steps.step", { number, count })}
          </p>
          <h2 id={headingId} className="mt-0.5 text-lg font-bold break-words">
            {title}
          </h2>
        </div>
        {action}
      </div>
      {children}
    </section>
  );
}

/**
 * A toggle that keeps the step's resource for later, or lets it go; kept resources are listed on
 * the student's resources page. Each is named with its step, as a lesson has several.
 */
export function SaveForLater({ lessonId, resource }: { lessonId: string; resource: LessonViewResource }) {
  const { t } = useTranslation("content");
  const keep = useKeepForLater(lessonId, resource);
  const Icon = resource.saved ? BookmarkCheck : Bookmark;
  const action = resource.saved ? t("lessons.take.keep.saved") : t("lessons.take.keep.save");
  const failed = keep.isError
    ? failureMessage(
        keep.error,
        t(keep.variables ? "lessons.take.keep.saveFailed" : "lessons.take.keep.unsaveFailed", {
          title: resource.title,
        }),
      )
    : null;
  return (
    <>
      <button
        type="button"
        aria-pressed={resource.saved}
        aria-label={t("lessons.take.keep.label", { action, title: resource.title })}
        onClick={() => keep.mutate(!resource.saved)}
        className={`inline-flex shrink-0 items-center gap-2 rounded-lg border px-3 py-1.5 text-sm font-semibold ${
          resource.saved
            ? "border-brand-600 bg-brand-50 text-brand-900 hover:bg-brand-100 dark:border-brand-500 dark:bg-brand-900 dark:text-brand-50 dark:hover:bg-brand-700"
            : "border-slate-300 bg-white text-slate-800 hover:bg-slate-50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800"
        }`}
      >
        <Icon aria-hidden="true" className="size-4" />
        {action}
      </button>
      {failed && (
        <p
          role="alert"
          className="basis-full rounded-lg bg-red-50 p-3 text-sm text-red-800 dark:bg-red-950 dark:text-red-200"
        >
          {failed}
        </p>
      )}
    </>
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

/**
 * A video file of this site plays here, as do YouTube and Vimeo videos in their privacy-enhanced
 * players; one elsewhere opens in its own tab (pages frame no other site).
 */
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
  return <VideoEmbed url={url} title={title} />;
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
