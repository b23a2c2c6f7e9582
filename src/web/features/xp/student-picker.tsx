import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useDeferredValue, useEffect, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import type { StudentSummary } from "../../../shared/contracts/activity";
import { buttonClass, TextField } from "../../components/ui/form";
import { i18next } from "../../lib/i18n";
import { fullName } from "../auth/auth-state";
import { useAuth } from "../auth/use-auth";
import { SELECTED_CHILD_KEY } from "../auth/view-as";
import { childrenSummaryQuery, guideStudentsQuery } from "../home/api";
import { studentSearchQuery } from "./api";

export interface PickedStudent {
  sourcedId: string;
  name: string;
}

export const SELECT_CLASS =
  "mt-1 block h-11 w-full rounded-lg border border-slate-300 bg-white px-3 py-2.5 text-base shadow-sm focus:border-brand-600 dark:border-slate-700 dark:bg-slate-950";

/** "grade 3" from the roster's "03"; kindergarten and other named grades stay as they are. */
export function gradeText(grades: string[]): string {
  return i18next.t("xp:picker.grade", {
    grades: grades.map((grade) => grade.replace(/^0+(?=\d)/, "")).join(", "),
  });
}

/**
 * Chooses whose XP a page shows, by the caller's role: a Guide's own students, a parent's or
 * guardian's children, or (administrators) anyone found by a search. Students see themselves.
 */
export function StudentPicker({
  selected,
  onSelect,
  autoSelect = false,
  wide = false,
}: {
  selected: PickedStudent | null;
  onSelect: (student: PickedStudent | null) => void;
  /** Choose the first student (or the child chosen before) when none is chosen yet. */
  autoSelect?: boolean;
  /** Fill the width of the container (in a form), rather than a comfortable select width. */
  wide?: boolean;
}) {
  const { activeRole } = useAuth();
  if (activeRole === "administrator")
    return <StudentSearch selected={selected} onSelect={onSelect} wide={wide} />;
  if (activeRole === "teacher" || activeRole === "parent" || activeRole === "guardian") {
    return (
      <StudentSelect
        source={activeRole === "teacher" ? "guide" : "family"}
        selected={selected}
        onSelect={onSelect}
        autoSelect={autoSelect}
        wide={wide}
      />
    );
  }
  return null;
}

function StudentSelect({
  source,
  selected,
  onSelect,
  autoSelect,
  wide,
}: {
  source: "guide" | "family";
  selected: PickedStudent | null;
  onSelect: (student: PickedStudent | null) => void;
  autoSelect: boolean;
  wide: boolean;
}) {
  const { t } = useTranslation("xp");
  const id = useId();
  const { user } = useAuth();
  const guideStudents = useQuery({ ...guideStudentsQuery(user.sourcedId), enabled: source === "guide" });
  const children = useQuery({ ...childrenSummaryQuery(user.sourcedId), enabled: source === "family" });
  const students = source === "guide" ? guideStudents : children;
  const list: StudentSummary[] = students.data ?? [];

  useEffect(() => {
    if (!autoSelect || selected || list.length === 0) return;
    const remembered = source === "family" ? localStorage.getItem(SELECTED_CHILD_KEY) : null;
    const first = list.find((student) => student.sourcedId === remembered) ?? list[0];
    if (first) onSelect({ sourcedId: first.sourcedId, name: fullName(first) });
  }, [autoSelect, selected, list, source, onSelect]);

  if (students.isError)
    return (
      <p role="alert" className="text-sm text-red-700 dark:text-red-300">
        {t("picker.loadFailed", { source, message: students.error.message })}
      </p>
    );
  if (students.isPending) return <p className="text-sm text-slate-600 dark:text-slate-300">{t("loading")}</p>;
  if (list.length === 0)
    return (
      <p className="text-sm text-slate-600 dark:text-slate-300">
        {source === "guide" ? t("picker.noStudents") : t("picker.noChildren")}
      </p>
    );
  return (
    <div className={wide ? "w-full" : "w-full sm:max-w-sm"}>
      <label htmlFor={id} className="text-sm font-medium">
        {t("picker.label", { source })}
      </label>
      <select
        id={id}
        className={SELECT_CLASS}
        value={selected?.sourcedId ?? ""}
        onChange={(event) => {
          const student = list.find((entry) => entry.sourcedId === event.target.value);
          if (source === "family" && student) localStorage.setItem(SELECTED_CHILD_KEY, student.sourcedId);
          onSelect(student ? { sourcedId: student.sourcedId, name: fullName(student) } : null);
        }}
      >
        <option value="">{t("picker.choose", { source })}</option>
        {list.map((student) => (
          <option key={student.sourcedId} value={student.sourcedId}>
            {fullName(student)}
            {student.grades.length ? ` (${gradeText(student.grades)})` : ""}
          </option>
        ))}
      </select>
    </div>
  );
}

/** Administrators find a student by name or email. */
function StudentSearch({
  selected,
  onSelect,
  wide,
}: {
  selected: PickedStudent | null;
  onSelect: (student: PickedStudent | null) => void;
  wide: boolean;
}) {
  const { t } = useTranslation("xp");
  const [search, setSearch] = useState("");
  const deferred = useDeferredValue(search.trim());
  const isSearching = !selected;
  const students = useQuery({
    ...studentSearchQuery(deferred),
    enabled: isSearching,
    placeholderData: keepPreviousData,
  });

  if (selected)
    return (
      <div className="flex flex-wrap items-center gap-3">
        <p>
          <span className="text-sm text-slate-600 dark:text-slate-300">{t("picker.studentLabel")} </span>
          <span className="font-semibold">{selected.name}</span>
        </p>
        <button type="button" className={buttonClass("secondary")} onClick={() => onSelect(null)}>
          {t("picker.change")}
        </button>
      </div>
    );

  return (
    <div className={wide ? "w-full" : "w-full sm:max-w-sm"}>
      <TextField
        label={t("picker.search")}
        type="search"
        value={search}
        onChange={(event) => setSearch(event.target.value)}
        placeholder={t("picker.searchPlaceholder")}
      />
      {students.isError && (
        <p role="alert" className="mt-2 text-sm text-red-700 dark:text-red-300">
          {students.error.message}
        </p>
      )}
      {students.data && (
        <>
          <p className="mt-2 text-xs text-slate-600 dark:text-slate-400" aria-live="polite">
            {students.data.length === 0
              ? t("picker.noMatch")
              : students.data.length >= 25
                ? t("picker.countShown", { count: students.data.length })
                : t("picker.count", { count: students.data.length })}
          </p>
          <ul className="mt-1 max-h-64 divide-y divide-slate-100 overflow-y-auto rounded-lg border border-slate-200 dark:divide-slate-800 dark:border-slate-800">
            {students.data.slice(0, 25).map((person) => (
              <li key={person.sourcedId}>
                <button
                  type="button"
                  onClick={() => onSelect({ sourcedId: person.sourcedId, name: fullName(person) })}
                  className="flex w-full flex-wrap items-baseline justify-between gap-x-3 px-3 py-2 text-left hover:bg-slate-50 dark:hover:bg-slate-800"
                >
                  <span className="font-medium">{fullName(person)}</span>
                  <span className="text-xs text-slate-600 dark:text-slate-400">
                    {[person.grades.length ? gradeText(person.grades) : null, person.email]
                      .filter(Boolean)
                      .join(" · ")}
                  </span>
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
