import { useState } from "react";
import { useTranslation } from "react-i18next";
import {
  type AnswerValue,
  CHOICE_KINDS,
  NUMBER_RANGES,
  QUESTION_KINDS,
  type Question,
  type QuestionKind,
} from "../../../shared/contracts/surveys";
import { PageHeader } from "../../components/page-header";
import { QuestionField } from "./questions";

/** The states a question is drawn in. */
const STATES = ["empty", "answered", "missing", "submitted"] as const;
type DrawnState = (typeof STATES)[number];

/** A sample answer of each kind, for the answered and submitted states. */
const SAMPLE_ANSWERS: Record<QuestionKind, AnswerValue> = {
  scale: 4,
  mood: 5,
  single_choice: "b",
  multiple_choice: ["a", "c"],
  nps: 9,
  short_text: "",
  long_text: "",
};

/** /admin/surveys/test-components: every question component in every state, for designers. */
export function SurveyComponentsPage() {
  const { t } = useTranslation("surveys");
  return (
    <div>
      <PageHeader title={t("gallery.title")} description={t("gallery.description")} />
      <div className="space-y-10">
        {QUESTION_KINDS.map((kind) => (
          <KindGallery key={kind} kind={kind} />
        ))}
      </div>
    </div>
  );
}

function KindGallery({ kind }: { kind: QuestionKind }) {
  const { t } = useTranslation("surveys");
  const question: Question = {
    id: `sample-${kind}`,
    kind,
    prompt: t(`gallery.samples.${kind}`),
    help: kind === "multiple_choice" || kind === "long_text" ? t("gallery.sampleHelp") : null,
    required: true,
    options: CHOICE_KINDS.includes(kind)
      ? ["a", "b", "c"].map((id) => ({ id, label: t(`gallery.options.${id}`) }))
      : [],
    lowLabel: NUMBER_RANGES[kind] && kind !== "mood" ? t("gallery.low") : null,
    highLabel: NUMBER_RANGES[kind] && kind !== "mood" ? t("gallery.high") : null,
  };
  const sampleText = t(kind === "long_text" ? "gallery.sampleLong" : "gallery.sampleShort");
  const sample = kind === "short_text" || kind === "long_text" ? sampleText : SAMPLE_ANSWERS[kind];
  return (
    <section aria-labelledby={`gallery-${kind}`}>
      <h2 id={`gallery-${kind}`} className="text-xl font-bold">
        {t(`kinds.${kind}`)}
      </h2>
      <div className="mt-3 grid gap-4 lg:grid-cols-2">
        {STATES.map((state) => (
          <DrawnQuestion key={state} question={question} state={state} sample={sample} />
        ))}
      </div>
    </section>
  );
}

/** One question in one state; the empty and answered ones can be tried. */
function DrawnQuestion({
  question,
  state,
  sample,
}: {
  question: Question;
  state: DrawnState;
  sample: AnswerValue;
}) {
  const { t } = useTranslation("surveys");
  const [value, setValue] = useState<AnswerValue | undefined>(
    state === "answered" || state === "submitted" ? sample : undefined,
  );
  return (
    <div>
      <h3 className="mb-2 text-sm font-semibold text-slate-600 uppercase dark:text-slate-300">
        {t(`gallery.states.${state}`)}
      </h3>
      <QuestionField
        question={question}
        number={1}
        value={value}
        onChange={setValue}
        error={state === "missing" ? t("answer.problems.required") : null}
        disabled={state === "submitted"}
      />
    </div>
  );
}
