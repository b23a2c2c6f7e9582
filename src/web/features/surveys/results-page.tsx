import { useQuery } from "@tanstack/react-query";
import { Link, useParams } from "@tanstack/react-router";
import type { TFunction } from "i18next";
import { EyeOff, Lock, MessageSquareText } from "lucide-react";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { CartesianGrid, Legend, Line, LineChart, Tooltip, XAxis, YAxis } from "recharts";
import {
  MIN_SHOWN_GROUP,
  MOOD_FACES,
  NUMBER_RANGES,
  type Question,
  type QuestionResult,
  RESULT_GROUPINGS,
  type ResultGrouping,
  type SurveyResults,
} from "../../../shared/contracts/surveys";
import { BarFigure } from "../../components/charts/bar-figure";
import {
  CATEGORY_AXIS,
  CHART_GRID,
  ChartFigure,
  TOOLTIP_FRAME,
  VALUE_AXIS,
} from "../../components/charts/chart-style";
import { PageHeader } from "../../components/page-header";
import { DownloadLink } from "../../components/ui/download-link";
import { SelectField } from "../../components/ui/form";
import { TableRegion } from "../../components/ui/table-region";
import { dateLabel, formatNumber, formatPercent, gradeLabel, instantDateLabel } from "../../lib/format";
import { EmptyState, Loading, QueryError, Section } from "../home/parts";
import { StateBadge } from "./admin-surveys-page";
import { isRefusal, responsesCsvUrl, surveyResultsQuery } from "./api";

/** /app/admin/survey-responses/$surveyId: a survey's response rate, answers per question, trends and groups. */
export function SurveyResponsesPage() {
  const { t } = useTranslation("surveys");
  const { surveyId } = useParams({ strict: false }) as { surveyId: string };
  const [round, setRound] = useState<number | null>(null);
  const [groupBy, setGroupBy] = useState<ResultGrouping | null>(null);
  const results = useQuery({
    ...surveyResultsQuery(surveyId, round, round === null ? null : groupBy),
    placeholderData: (previous) => previous,
  });

  if (results.isPending) return <Loading label={t("results.loading")} rows={6} />;
  if (results.isError)
    return (
      <div>
        <PageHeader title={t("results.title")} />
        {isRefusal(results.error) ? (
          <EmptyState icon={EyeOff} title={t("results.notFound")}>
            <Link
              to="/app/admin/surveys"
              className="font-semibold text-brand-700 underline dark:text-brand-100"
            >
              {t("results.backToSurveys")}
            </Link>
          </EmptyState>
        ) : (
          <QueryError
            error={results.error}
            fallback={t("results.loadFailed")}
            onRetry={() => results.refetch()}
          />
        )}
      </div>
    );
  const data = results.data;
  const { survey } = data;
  return (
    <div className="space-y-6">
      <PageHeader
        title={survey.title}
        description={
          <span className="flex flex-wrap items-center gap-2">
            <StateBadge state={survey.state} />
            {survey.isAnonymous ? (
              <span className="inline-flex items-center gap-1 text-sm">
                <Lock aria-hidden="true" className="size-4 shrink-0" />
                {t("results.anonymous", { minimum: MIN_SHOWN_GROUP })}
              </span>
            ) : (
              <span className="text-sm">{t("results.named")}</span>
            )}
          </span>
        }
        actions={
          <div className="flex flex-wrap items-center gap-3">
            <Link
              to="/app/admin/surveys"
              className="text-sm font-semibold text-brand-700 underline dark:text-brand-100"
            >
              {t("results.backToSurveys")}
            </Link>
            {data.rounds.length > 0 && (
              <DownloadLink href={responsesCsvUrl(survey.id, round)}>{t("results.download")}</DownloadLink>
            )}
          </div>
        }
      />

      {data.rounds.length === 0 ? (
        <EmptyState icon={MessageSquareText} title={t("results.noRounds")}>
          {t("results.noRoundsBody")}
        </EmptyState>
      ) : (
        <>
          <div className="flex flex-wrap items-end gap-4">
            {data.rounds.length > 1 && (
              <SelectField
                className="min-w-64"
                label={t("results.round")}
                value={round === null ? "" : String(round)}
                options={[
                  { value: "", label: t("results.allRounds") },
                  ...data.rounds.map((entry) => ({
                    value: String(entry.number),
                    label: t("results.roundOption", {
                      number: entry.number,
                      day: instantDateLabel(entry.opensAt),
                    }),
                  })),
                ]}
                onChange={(event) => setRound(event.target.value ? Number(event.target.value) : null)}
              />
            )}
            {results.isFetching && (
              <span className="pb-3 text-sm text-slate-600 dark:text-slate-300">{t("results.updating")}</span>
            )}
          </div>
          <ResponseRate data={data} />
          {data.rounds.length > 1 && <Trends data={data} />}
          {data.isHidden ? (
            <HiddenNote />
          ) : (
            <>
              {data.round !== null && <Groups data={data} groupBy={groupBy} onGroupBy={setGroupBy} />}
              <QuestionResults data={data} />
            </>
          )}
        </>
      )}
    </div>
  );
}

/** The words every hidden figure says. */
function HiddenNote() {
  const { t } = useTranslation("surveys");
  return (
    <p className="flex items-center gap-2 rounded-xl border border-dashed border-slate-300 p-4 text-sm font-medium text-slate-700 dark:border-slate-700 dark:text-slate-200">
      <EyeOff aria-hidden="true" className="size-5 shrink-0" />
      {t("results.hidden", { minimum: MIN_SHOWN_GROUP })}
    </p>
  );
}

/** How many were asked and answered: the chosen round's (or the latest's), and every round's as bars. */
function ResponseRate({ data }: { data: SurveyResults }) {
  const { t } = useTranslation("surveys");
  const current = data.rounds.find((entry) => entry.number === data.round) ?? data.rounds.at(-1);
  if (!current) return null;
  const share = current.invited > 0 ? current.answered / current.invited : 0;
  return (
    <Section
      title={t("results.rateTitle")}
      description={
        data.rounds.length > 1
          ? t("results.rateOfRound", { number: current.number })
          : t("results.rateDescription")
      }
    >
      <p className="text-3xl font-extrabold tabular-nums">{formatPercent(share)}</p>
      <p className="mt-1 text-sm text-slate-700 dark:text-slate-200">
        {t("results.rate", {
          answered: formatNumber(current.answered, 0),
          invited: formatNumber(current.invited, 0),
        })}
      </p>
      <div
        role="progressbar"
        aria-label={t("results.rateTitle")}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(share * 100)}
        className="mt-3 h-3 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-700"
      >
        <div
          className="h-full rounded-full bg-brand-600 dark:bg-brand-500"
          style={{ width: `${Math.min(100, share * 100)}%` }}
        />
      </div>
      {data.rounds.length > 1 && (
        <div className="mt-6">
          <BarFigure
            bars={data.rounds.map((entry) => ({
              label: String(entry.number),
              name: t("results.roundOption", { number: entry.number, day: instantDateLabel(entry.opensAt) }),
              value: entry.invited > 0 ? Math.round((entry.answered / entry.invited) * 100) : 0,
            }))}
            description={t("results.rateChart")}
            valueLabel={t("results.rateValue")}
            formatValue={(value) => `${formatNumber(value, 0)}%`}
            minimumTop={100}
            caption={t("results.rateCaption")}
          />
        </div>
      )}
    </Section>
  );
}

const LINE_COLOURS = ["#2563eb", "#059669", "#d97706", "#9333ea", "#dc2626", "#0891b2"];

/** The headline figure of each number question, round by round: averages (1–5), and net promoter scores. */
function Trends({ data }: { data: SurveyResults }) {
  const { t } = useTranslation("surveys");
  const questions = data.survey.sections.flatMap((section) => section.questions);
  const averages = questions.filter((question) => question.kind === "scale" || question.kind === "mood");
  const promoters = questions.filter((question) => question.kind === "nps");
  const hiddenRounds = data.trends.filter((trend) => trend.isHidden).map((trend) => trend.number);
  if (averages.length === 0 && promoters.length === 0) return null;
  return (
    <Section title={t("results.trendsTitle")} description={t("results.trendsDescription")}>
      <div className={`grid gap-6 ${averages.length > 0 && promoters.length > 0 ? "lg:grid-cols-2" : ""}`}>
        {averages.length > 0 && (
          <TrendChart
            data={data}
            questions={averages}
            domain={[1, 5]}
            description={t("results.averagesChart")}
            caption={t("results.averagesCaption")}
          />
        )}
        {promoters.length > 0 && (
          <TrendChart
            data={data}
            questions={promoters}
            domain={[-100, 100]}
            description={t("results.npsChart")}
            caption={t("results.npsCaption")}
          />
        )}
      </div>
      {hiddenRounds.length > 0 && (
        <p className="mt-3 text-sm text-slate-600 dark:text-slate-300">
          {t("results.trendsHidden", { rounds: hiddenRounds.join(", "), minimum: MIN_SHOWN_GROUP })}
        </p>
      )}
    </Section>
  );
}

function TrendChart({
  data,
  questions,
  domain,
  description,
  caption,
}: {
  data: SurveyResults;
  questions: Question[];
  domain: [number, number];
  description: string;
  caption: string;
}) {
  const { t } = useTranslation("surveys");
  const points = data.trends.map((trend) => ({
    round: String(trend.number),
    ...Object.fromEntries(questions.map((question) => [question.id, trend.scores[question.id] ?? null])),
  }));
  const summary = questions
    .map(
      (question) =>
        `${question.prompt}: ${data.trends
          .map((trend) =>
            t("results.trendPoint", {
              number: trend.number,
              value:
                trend.scores[question.id] === undefined || trend.scores[question.id] === null
                  ? t("results.trendHidden")
                  : formatNumber(trend.scores[question.id] as number, 1),
            }),
          )
          .join(", ")}`,
    )
    .join("; ");
  return (
    <ChartFigure label={`${description}. ${summary}.`} caption={caption}>
      <LineChart data={points} margin={{ top: 8, right: 12, bottom: 0, left: 0 }}>
        <CartesianGrid {...CHART_GRID} />
        <XAxis
          {...CATEGORY_AXIS}
          dataKey="round"
          label={{
            value: t("results.roundAxis"),
            position: "insideBottomRight",
            offset: -2,
            fill: "currentColor",
            fontSize: 11,
          }}
        />
        <YAxis {...VALUE_AXIS} domain={domain} />
        <Tooltip
          {...TOOLTIP_FRAME}
          formatter={(value, name) => [
            value === null ? t("results.trendHidden") : formatNumber(Number(value), 1),
            String(name),
          ]}
          labelFormatter={(label) => t("results.roundNumber", { number: label })}
        />
        <Legend wrapperStyle={{ fontSize: 12 }} />
        {questions.map((question, index) => (
          <Line
            key={question.id}
            dataKey={question.id}
            name={question.prompt}
            stroke={LINE_COLOURS[index % LINE_COLOURS.length]}
            strokeWidth={3}
            dot={{ r: 4 }}
            isAnimationActive={false}
          />
        ))}
      </LineChart>
    </ChartFigure>
  );
}

/** One round's answers per group (role, school or grade); small groups of an anonymous survey hidden. */
function Groups({
  data,
  groupBy,
  onGroupBy,
}: {
  data: SurveyResults;
  groupBy: ResultGrouping | null;
  onGroupBy: (groupBy: ResultGrouping | null) => void;
}) {
  const { t } = useTranslation("surveys");
  const questions = data.survey.sections
    .flatMap((section) => section.questions)
    .filter((question) => NUMBER_RANGES[question.kind]);
  if (questions.length === 0) return null;
  const labelOf = (by: ResultGrouping, key: string, label: string) =>
    key === ""
      ? t("results.groupUnknown")
      : by === "role"
        ? t(`audienceRoles.${key}`, { defaultValue: key })
        : by === "grade"
          ? gradeLabel([key])
          : label;
  return (
    <Section title={t("results.groupsTitle")} description={t("results.groupsDescription")}>
      <SelectField
        className="max-w-xs"
        label={t("results.groupBy")}
        value={groupBy ?? ""}
        options={[
          { value: "", label: t("results.groupNone") },
          ...RESULT_GROUPINGS.map((by) => ({ value: by, label: t(`results.groupings.${by}`) })),
        ]}
        onChange={(event) => onGroupBy((event.target.value || null) as ResultGrouping | null)}
      />
      {data.groups && (
        <TableRegion label={t("results.groupsTitle")} className="mt-4 -mx-5 sm:mx-0">
          <table className="w-full min-w-[32rem] text-left text-sm">
            <caption className="sr-only">
              {t("results.groupsCaption", { by: t(`results.groupings.${data.groups.by}`) })}
            </caption>
            <thead className="border-b border-slate-200 text-xs text-slate-600 uppercase dark:border-slate-700 dark:text-slate-300">
              <tr>
                <th scope="col" className="px-5 py-2 font-semibold sm:px-3">
                  {t(`results.groupings.${data.groups.by}`)}
                </th>
                <th scope="col" className="px-3 py-2 font-semibold">
                  {t("results.answeredColumn")}
                </th>
                {questions.map((question) => (
                  <th key={question.id} scope="col" className="px-3 py-2 font-semibold normal-case">
                    {question.prompt}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
              {data.groups.rows.map((row) => {
                const groups = data.groups as NonNullable<SurveyResults["groups"]>;
                return (
                  <tr key={row.key}>
                    <th scope="row" className="px-5 py-2 text-left font-medium sm:px-3">
                      {labelOf(groups.by, row.key, row.label)}
                    </th>
                    {row.isHidden ? (
                      <td
                        colSpan={questions.length + 1}
                        className="px-3 py-2 text-slate-600 italic dark:text-slate-300"
                      >
                        {t("results.hidden", { minimum: MIN_SHOWN_GROUP })}
                      </td>
                    ) : (
                      <>
                        <td className="px-3 py-2 tabular-nums">{formatNumber(row.answered ?? 0, 0)}</td>
                        {questions.map((question) => (
                          <td key={question.id} className="px-3 py-2 tabular-nums">
                            {scoreText(question, row.scores[question.id] ?? null, t)}
                          </td>
                        ))}
                      </>
                    )}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </TableRegion>
      )}
    </Section>
  );
}

function scoreText(question: Question, score: number | null, t: TFunction<"surveys">) {
  if (score === null) return "—";
  if (question.kind === "nps")
    return t("results.npsValue", { score: score > 0 ? `+${score}` : String(score) });
  return t("results.averageValue", {
    average: formatNumber(score, 1),
    max: NUMBER_RANGES[question.kind]?.max,
  });
}

function QuestionResults({ data }: { data: SurveyResults }) {
  const { t } = useTranslation("surveys");
  const byId = new Map(data.questions.map((result) => [result.id, result]));
  let number = 0;
  return (
    <section aria-labelledby="question-results" className="space-y-4">
      <h2 id="question-results" className="text-xl font-bold">
        {data.round !== null
          ? t("results.questionsRound", { number: data.round, count: data.answered })
          : data.rounds.length > 1
            ? t("results.questionsAll", { count: data.answered })
            : t("results.questionsOnce", { count: data.answered })}
      </h2>
      <div className="grid gap-4 xl:grid-cols-2">
        {data.survey.sections.flatMap((section) =>
          section.questions.map((question) => {
            number += 1;
            const result = byId.get(question.id);
            return result ? (
              <QuestionResultCard key={question.id} number={number} question={question} result={result} />
            ) : null;
          }),
        )}
      </div>
    </section>
  );
}

function QuestionResultCard({
  number,
  question,
  result,
}: {
  number: number;
  question: Question;
  result: QuestionResult;
}) {
  const { t } = useTranslation("surveys");
  const headingId = useId();
  const isText =
    result.counts.length === 0 && (question.kind === "short_text" || question.kind === "long_text");
  const labels = (value: string) => {
    if (question.kind === "mood")
      return { face: MOOD_FACES[Number(value) - 1] ?? null, name: t(`mood.${value}`) };
    return { face: null, name: question.options.find((entry) => entry.id === value)?.label ?? value };
  };
  return (
    <section
      aria-labelledby={headingId}
      className="min-w-0 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-800 dark:bg-slate-900"
    >
      <h3 id={headingId} className="font-bold">
        {number}. {question.prompt}
      </h3>
      <p className="mt-0.5 text-sm text-slate-600 dark:text-slate-300">
        {t(`kinds.${question.kind}`)} · {t("results.answeredCount", { count: result.answered })}
      </p>
      {result.average !== null && (
        <p className="mt-3 text-2xl font-extrabold tabular-nums">
          {t("results.averageValue", {
            average: formatNumber(result.average, 1),
            max: NUMBER_RANGES[question.kind]?.max,
          })}
          {question.kind === "mood" && (
            <span aria-hidden="true" className="ml-2">
              {MOOD_FACES[Math.round(result.average) - 1]}
            </span>
          )}
        </p>
      )}
      {result.nps && (
        <div className="mt-3">
          <p className="text-2xl font-extrabold tabular-nums">
            {t("results.npsValue", {
              score: result.nps.score > 0 ? `+${result.nps.score}` : String(result.nps.score),
            })}
          </p>
          <p className="text-sm text-slate-700 dark:text-slate-200">
            {t("results.npsParts", {
              promoters: result.nps.promoters,
              passives: result.nps.passives,
              detractors: result.nps.detractors,
            })}
          </p>
        </div>
      )}
      {isText ? (
        <TextAnswers result={result} prompt={question.prompt} />
      ) : result.answered === 0 ? (
        <p className="mt-3 text-sm text-slate-600 dark:text-slate-300">{t("results.noAnswers")}</p>
      ) : question.kind === "scale" || question.kind === "nps" ? (
        <div className="mt-3">
          <BarFigure
            bars={result.counts.map((entry) => ({
              label: entry.value,
              name: entry.value,
              value: entry.count,
            }))}
            description={t("results.distributionChart", { prompt: question.prompt })}
            valueLabel={t("results.answersValue")}
            formatValue={(value) => formatNumber(value, 0)}
            caption={t("results.distributionCaption")}
          />
        </div>
      ) : (
        <DistributionBars
          rows={result.counts.map((entry) => ({ ...labels(entry.value), count: entry.count }))}
          total={result.answered}
          description={t("results.distributionChart", { prompt: question.prompt })}
          caption={
            question.kind === "multiple_choice"
              ? t("results.pickManyCaption")
              : t("results.distributionCaption")
          }
        />
      )}
    </section>
  );
}

/**
 * Answers to choices and faces as a bar per answer, with its words beside it (long choices stay
 * readable on a phone); each bar's share is of the people who answered the question.
 */
function DistributionBars({
  rows,
  total,
  description,
  caption,
}: {
  rows: { face: string | null; name: string; count: number }[];
  total: number;
  description: string;
  caption: string;
}) {
  const top = Math.max(1, ...rows.map((row) => row.count));
  return (
    <figure className="mt-3">
      <ul aria-label={description} className="space-y-2.5">
        {rows.map((row) => {
          const share = total > 0 ? row.count / total : 0;
          return (
            <li
              key={row.name}
              className="grid grid-cols-[minmax(0,7rem)_1fr_5rem] items-center gap-3 text-sm sm:grid-cols-[minmax(0,10rem)_1fr_5.5rem]"
            >
              <span className="flex items-center gap-2 break-words">
                {row.face && (
                  <span aria-hidden="true" className="text-xl leading-none">
                    {row.face}
                  </span>
                )}
                {row.name}
              </span>
              <span aria-hidden="true" className="h-4 overflow-hidden rounded bg-slate-100 dark:bg-slate-800">
                <span
                  className="block h-full rounded bg-brand-600 dark:bg-brand-500"
                  style={{ width: `${(row.count / top) * 100}%` }}
                />
              </span>
              <span className="text-right tabular-nums">
                {formatNumber(row.count, 0)}{" "}
                <span className="text-slate-600 dark:text-slate-300">({formatPercent(share)})</span>
              </span>
            </li>
          );
        })}
      </ul>
      <figcaption className="mt-2 text-xs text-slate-600 dark:text-slate-300">{caption}</figcaption>
    </figure>
  );
}

function TextAnswers({ result, prompt }: { result: QuestionResult; prompt: string }) {
  const { t } = useTranslation("surveys");
  if (result.texts.total === 0)
    return <p className="mt-3 text-sm text-slate-600 dark:text-slate-300">{t("results.noAnswers")}</p>;
  return (
    <div className="mt-3">
      <ul
        aria-label={t("results.textAnswers", { prompt })}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a list that scrolls must be reachable by keyboard
        tabIndex={0}
        className="max-h-96 space-y-2 overflow-y-auto pr-1 focus-visible:outline-2 focus-visible:outline-brand-600"
      >
        {result.texts.items.map((item, index) => (
          <li
            // Text answers have no id of their own; their order is fixed by the server.
            // biome-ignore lint/suspicious/noArrayIndexKey: the list never reorders while shown
            key={index}
            className="rounded-lg bg-slate-50 px-3 py-2 text-sm dark:bg-slate-800"
          >
            <p className="whitespace-pre-line break-words">{item.text}</p>
            {item.respondent && (
              <p className="mt-1 text-xs text-slate-600 dark:text-slate-300">
                {item.respondent}
                {item.submittedOn && ` · ${dateLabel(item.submittedOn)}`}
              </p>
            )}
          </li>
        ))}
      </ul>
      {result.texts.total > result.texts.items.length && (
        <p className="mt-2 text-xs text-slate-600 dark:text-slate-300">
          {t("results.moreTexts", { shown: result.texts.items.length, total: result.texts.total })}
        </p>
      )}
    </div>
  );
}
