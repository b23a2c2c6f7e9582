import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  type AdminAnnouncement,
  AUDIENCE_KINDS,
  type Audience,
  type AudienceKind,
  MAX_ANNOUNCEMENT_TITLE_LENGTH,
} from "../../../shared/contracts/messaging";
import { ConfirmDialog, failureMessage } from "../../components/ui/dialog";
import { buttonClass, SelectField, TextField } from "../../components/ui/form";
import { formatNumber, gradeLabel, instantLabel } from "../../lib/format";
import { audienceChoicesQuery, audienceSizeQuery, createAnnouncement } from "./api";
import { messagingKeys } from "./keys";
import { RichTextEditor } from "./rich-text-editor";

/** The kinds whose audience is a school or district (the others are a class). */
const ORG_KINDS: readonly AudienceKind[] = ["school", "grade", "staff"];

interface Draft {
  title: string;
  bodyHtml: string;
  kind: AudienceKind;
  orgId: string;
  grade: string;
  classId: string;
  when: "now" | "later";
  /** `datetime-local` text, in the administrator's time zone. */
  at: string;
}

const EMPTY: Draft = {
  title: "",
  bodyHtml: "",
  kind: "school",
  orgId: "",
  grade: "",
  classId: "",
  when: "now",
  at: "",
};

/** The audience a draft names, once it names one whole. */
function audienceOf(draft: Draft): Audience | null {
  switch (draft.kind) {
    case "school":
    case "staff":
      return draft.orgId ? { kind: draft.kind, orgId: draft.orgId } : null;
    case "grade":
      return draft.orgId && draft.grade ? { kind: "grade", orgId: draft.orgId, grade: draft.grade } : null;
    case "class":
    case "class_parents":
      return draft.classId ? { kind: draft.kind, classId: draft.classId } : null;
  }
}

/** `datetime-local` text for an instant, in the browser's time zone. */
function localInput(instant: Date): string {
  const local = new Date(instant.getTime() - instant.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}

/**
 * Writes an announcement: a title, rich text, who it is for (with how many people that reaches
 * now), and whether it goes now or at a set time. Sending asks first, naming the number of people.
 */
export function AnnouncementForm({ onDone }: { onDone: (announcement: AdminAnnouncement) => void }) {
  const { t } = useTranslation("messaging");
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [isConfirming, setIsConfirming] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const problemId = useId();
  const set = (changes: Partial<Draft>) => setDraft((current) => ({ ...current, ...changes }));

  const schoolId = ORG_KINDS.includes(draft.kind) ? "" : draft.orgId;
  const choices = useQuery(audienceChoicesQuery(schoolId));
  const audience = audienceOf(draft);
  const size = useQuery({
    ...audienceSizeQuery(audience ?? { kind: "staff", orgId: "" }),
    enabled: audience !== null,
  });
  const organisations = (choices.data?.organisations ?? []).filter(
    (org) => draft.kind !== "grade" || org.type === "school",
  );
  const schools = (choices.data?.organisations ?? []).filter((org) => org.type === "school");
  const grades = choices.data?.organisations.find((org) => org.id === draft.orgId)?.grades ?? [];
  const classes = schoolId ? (choices.data?.classes ?? []) : [];
  const recipients = size.data?.recipients;

  const send = useMutation({
    mutationFn: () =>
      createAnnouncement({
        title: draft.title,
        bodyHtml: draft.bodyHtml,
        audience: audience as Audience,
        scheduledFor: draft.when === "later" && draft.at ? new Date(draft.at).toISOString() : null,
      }),
    onSuccess: (announcement) => {
      setDraft(EMPTY);
      void queryClient.invalidateQueries({ queryKey: messagingKeys.admin });
      void queryClient.invalidateQueries({ queryKey: messagingKeys.inbox });
      onDone(announcement);
    },
  });

  const check = (event: FormEvent) => {
    event.preventDefault();
    const missing = !draft.title.trim()
      ? t("compose.problems.title")
      : !draft.bodyHtml.replace(/<[^>]*>/g, "").trim()
        ? t("compose.problems.body")
        : !audience
          ? t("compose.problems.audience")
          : draft.when === "later" && (!draft.at || new Date(draft.at) <= new Date())
            ? t("compose.problems.time")
            : null;
    setProblem(missing);
    if (!missing) setIsConfirming(true);
  };

  return (
    <form onSubmit={check} className="space-y-5" aria-describedby={problem ? problemId : undefined}>
      <TextField
        label={t("compose.title")}
        value={draft.title}
        maxLength={MAX_ANNOUNCEMENT_TITLE_LENGTH}
        onChange={(event) => set({ title: event.target.value })}
      />
      <RichTextEditor
        label={t("compose.body")}
        html={draft.bodyHtml}
        onChange={(bodyHtml) => set({ bodyHtml })}
      />
      <fieldset className="space-y-3">
        <legend className="text-base font-semibold">{t("compose.audience")}</legend>
        <div className="grid gap-3 sm:grid-cols-2">
          <SelectField
            label={t("compose.kind")}
            value={draft.kind}
            onChange={(event) =>
              set({ kind: event.target.value as AudienceKind, orgId: "", grade: "", classId: "" })
            }
            options={AUDIENCE_KINDS.map((kind) => ({ value: kind, label: t(`audience.kinds.${kind}`) }))}
          />
          {ORG_KINDS.includes(draft.kind) ? (
            <SelectField
              label={draft.kind === "grade" ? t("compose.school") : t("compose.organisation")}
              value={draft.orgId}
              onChange={(event) => set({ orgId: event.target.value, grade: "" })}
              options={[
                { value: "", label: t("compose.choose"), disabled: true },
                ...organisations.map((org) => ({
                  value: org.id,
                  label: org.type === "district" ? t("compose.district", { name: org.name }) : org.name,
                })),
              ]}
            />
          ) : (
            <SelectField
              label={t("compose.school")}
              value={draft.orgId}
              onChange={(event) => set({ orgId: event.target.value, classId: "" })}
              options={[
                { value: "", label: t("compose.choose"), disabled: true },
                ...schools.map((org) => ({ value: org.id, label: org.name })),
              ]}
            />
          )}
          {draft.kind === "grade" && (
            <SelectField
              label={t("compose.grade")}
              value={draft.grade}
              disabled={!draft.orgId}
              onChange={(event) => set({ grade: event.target.value })}
              options={[
                { value: "", label: t("compose.choose"), disabled: true },
                ...grades.map((grade) => ({ value: grade, label: gradeLabel([grade]) })),
              ]}
            />
          )}
          {(draft.kind === "class" || draft.kind === "class_parents") && (
            <SelectField
              label={t("compose.class")}
              value={draft.classId}
              disabled={!draft.orgId}
              onChange={(event) => set({ classId: event.target.value })}
              options={[
                { value: "", label: t("compose.choose"), disabled: true },
                ...classes.map((item) => ({ value: item.id, label: item.title })),
              ]}
            />
          )}
        </div>
        <p role="status" className="text-sm text-slate-700 dark:text-slate-300">
          {audience === null
            ? t("compose.reachUnknown")
            : recipients === undefined
              ? t("compose.reachCounting")
              : t("compose.reach", { count: recipients, shown: formatNumber(recipients, 0) })}
        </p>
      </fieldset>
      <fieldset className="space-y-2">
        <legend className="text-base font-semibold">{t("compose.when")}</legend>
        <div className="flex flex-wrap gap-x-6 gap-y-2">
          {(["now", "later"] as const).map((when) => (
            <label key={when} className="flex items-center gap-2 text-sm">
              <input
                type="radio"
                name="announcement-when"
                value={when}
                checked={draft.when === when}
                onChange={() =>
                  set({
                    when,
                    at:
                      when === "later" && !draft.at ? localInput(new Date(Date.now() + 3_600_000)) : draft.at,
                  })
                }
                className="size-4 accent-brand-600"
              />
              {t(`compose.${when}`)}
            </label>
          ))}
        </div>
        {draft.when === "later" && (
          <TextField
            label={t("compose.at")}
            type="datetime-local"
            value={draft.at}
            min={localInput(new Date())}
            onChange={(event) => set({ at: event.target.value })}
            className="max-w-xs"
          />
        )}
        <p className="text-sm text-slate-600 dark:text-slate-300">{t("compose.channels")}</p>
      </fieldset>
      {problem && (
        <p id={problemId} role="alert" className="text-sm text-red-700 dark:text-red-300">
          {problem}
        </p>
      )}
      <button type="submit" className={buttonClass("primary")}>
        {draft.when === "later" ? t("compose.schedule") : t("compose.send")}
      </button>
      {isConfirming && (
        <ConfirmDialog
          title={draft.when === "later" ? t("compose.confirm.scheduleTitle") : t("compose.confirm.sendTitle")}
          message={
            draft.when === "later"
              ? t("compose.confirm.schedule", {
                  count: recipients ?? 0,
                  shown: formatNumber(recipients ?? 0, 0),
                  when: instantLabel(new Date(draft.at)),
                })
              : t("compose.confirm.send", { count: recipients ?? 0, shown: formatNumber(recipients ?? 0, 0) })
          }
          confirmLabel={draft.when === "later" ? t("compose.schedule") : t("compose.send")}
          tone="primary"
          onConfirm={() => send.mutateAsync()}
          onClose={() => setIsConfirming(false)}
        />
      )}
      {send.isError && !isConfirming && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {failureMessage(send.error, t("compose.failed"))}
        </p>
      )}
    </form>
  );
}
