import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { Suspense } from "react";
import { useTranslation } from "react-i18next";
import { Loading, Section } from "../home/parts";
import { AssignedList, isAssignmentDone } from "./assigned-list";
import { myAssignmentsQuery } from "./assignments-api";

/** The home shows this many; the rest are a click away. */
const SHOWN = 4;

/**
 * "Assigned to you" on a student's home: what is left to do, the next due first, overdue ones
 * flagged, each with the way to its lesson. Nothing at all when nothing was ever assigned, or when
 * it cannot load (the rest of the home matters more).
 */
export function AssignedGlance() {
  return (
    <Suspense
      fallback={
        <div
          aria-hidden="true"
          className="h-32 motion-safe:animate-pulse rounded-2xl bg-slate-100 dark:bg-slate-800"
        />
      }
    >
      <Glance />
    </Suspense>
  );
}

function Glance() {
  const { t } = useTranslation("content");
  const mine = useQuery(myAssignmentsQuery);
  if (mine.isError || mine.data?.assignments.length === 0) return null;
  const open = mine.data?.assignments.filter((assignment) => !isAssignmentDone(assignment)) ?? [];
  const late = open.filter((assignment) => assignment.isOverdue).length;
  return (
    <Section
      title={t("lessons.assignments.glance.title")}
      description={
        mine.data ? t("lessons.assignments.glance.description", { count: open.length, late }) : undefined
      }
      actions={
        <Link
          to="/app/student-resources"
          className="inline-flex items-center gap-1 rounded-lg border border-brand-600 px-3 py-1.5 text-sm font-semibold text-brand-700 hover:bg-brand-50 dark:border-brand-500 dark:text-brand-100 dark:hover:bg-slate-800"
        >
          {t("lessons.assignments.glance.all")} <span aria-hidden="true">→</span>
        </Link>
      }
    >
      {!mine.data ? (
        <Loading label={t("lessons.assignments.glance.loading")} rows={2} />
      ) : open.length === 0 ? (
        <p className="text-sm text-slate-700 dark:text-slate-200">
          {t("lessons.assignments.glance.allDone")}
        </p>
      ) : (
        <AssignedList assignments={open.slice(0, SHOWN)} today={mine.data.today} canOpen isOwn compact />
      )}
    </Section>
  );
}
