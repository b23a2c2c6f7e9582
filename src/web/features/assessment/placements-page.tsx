import { useQuery } from "@tanstack/react-query";
import { useNavigate, useSearch } from "@tanstack/react-router";
import { GraduationCap, UserSearch } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import type { StudentPlacements } from "../../../shared/contracts/assessment";
import type { searchSchemas } from "../../../shared/routes";
import { Card, PageHeader } from "../../components/page-header";
import { buttonClass } from "../../components/ui/form";
import { gradeLabel } from "../../lib/format";
import { useAuth } from "../auth/use-auth";
import { EmptyState, Loading, QueryError } from "../home/parts";
import { SuccessNote } from "../rewards/admin-form";
import { StudentPicker } from "../xp/student-picker";
import { studentPlacementsQuery } from "./placements-api";
import {
  ChangeLevelDialog,
  RecordTestDialog,
  type StudentToPlace,
  SubjectPlacementCard,
  subjectList,
} from "./placements-parts";

type PlacementsSearch = z.output<typeof searchSchemas.placements>;

/** /app/placements: a student's levels per subject; Guides and administrators choose a student and change them. */
export function PlacementsPage() {
  const { t } = useTranslation("assessment");
  const { activeRole } = useAuth();
  const search = useSearch({ strict: false }) as PlacementsSearch;
  const navigate = useNavigate();
  const isStaff = activeRole === "teacher" || activeRole === "administrator";
  const studentId = isStaff ? search.studentId : undefined;
  const chosen = useQuery({ ...studentPlacementsQuery(studentId), enabled: Boolean(studentId) });

  return (
    <div className="space-y-6">
      <PageHeader
        title={t("common:pages./app/placements.title")}
        description={
          isStaff ? t("placements.page.staffDescription") : t("placements.page.studentDescription")
        }
      />
      {isStaff && (
        <Card>
          <StudentPicker
            selected={
              studentId
                ? {
                    sourcedId: studentId,
                    name: chosen.data?.student.name ?? (chosen.isError ? studentId : "…"),
                  }
                : null
            }
            onSelect={(student) =>
              void navigate({
                to: "/app/placements",
                search: (student ? { studentId: student.sourcedId } : {}) as never,
              })
            }
          />
        </Card>
      )}
      {isStaff && !studentId ? (
        <EmptyState icon={UserSearch} title={t("placements.page.chooseTitle")}>
          {t("placements.page.chooseBody")}
        </EmptyState>
      ) : (
        <StudentPlacementsView studentId={studentId} />
      )}
    </div>
  );
}

/** A student's placement cards (the caller's own without an id), with changes where the reader may make them. */
export function StudentPlacementsView({ studentId }: { studentId: string | undefined }) {
  const { t } = useTranslation("assessment");
  const placements = useQuery(studentPlacementsQuery(studentId));
  if (placements.isPending) return <Loading label={t("placements.page.loading")} rows={4} />;
  if (placements.isError)
    return (
      <QueryError
        error={placements.error}
        fallback={t("placements.page.loadFailed")}
        onRetry={() => placements.refetch()}
      />
    );
  return <StudentCards placements={placements.data} />;
}

type Editing = { kind: "level" | "test"; subject?: string } | null;

function StudentCards({ placements }: { placements: StudentPlacements }) {
  const { t } = useTranslation("assessment");
  const [editing, setEditing] = useState<Editing>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const student: StudentToPlace = {
    id: placements.student.id,
    name: placements.student.name,
    grades: Object.fromEntries(
      placements.subjects.flatMap((entry) =>
        entry.currentGrade === null ? [] : [[entry.subject, entry.currentGrade]],
      ),
    ),
  };
  const subjects = subjectList(placements.subjects.map((entry) => entry.subject));
  const open = (kind: "level" | "test", subject?: string) => {
    setNotice(null);
    setEditing({ kind, subject });
  };

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 className="text-xl font-bold">{placements.student.name}</h2>
          {placements.student.grades.length > 0 && (
            <p className="text-sm text-slate-600 dark:text-slate-300">
              {t("placements.page.rosterGrade", { grade: gradeLabel(placements.student.grades) })}
            </p>
          )}
        </div>
        {placements.canEdit && (
          <div className="flex flex-wrap gap-2">
            <button type="button" className={buttonClass("primary")} onClick={() => open("level")}>
              {t("placements.actions.changeLevel")}
            </button>
            <button type="button" className={buttonClass("secondary")} onClick={() => open("test")}>
              {t("placements.actions.recordTest")}
            </button>
          </div>
        )}
      </div>
      <div role="status">{notice && <SuccessNote>{notice}</SuccessNote>}</div>
      {placements.subjects.length === 0 ? (
        <EmptyState icon={GraduationCap} title={t("placements.page.emptyTitle")}>
          {placements.canEdit ? t("placements.page.emptyStaff") : t("placements.page.emptyStudent")}
        </EmptyState>
      ) : (
        <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
          {placements.subjects.map((placement) => (
            <SubjectPlacementCard
              key={placement.subject}
              placement={placement}
              actions={
                placements.canEdit && (
                  <button
                    type="button"
                    className={buttonClass("secondary", "px-3 py-1.5")}
                    aria-label={t("placements.actions.changeLevelOf", { subject: placement.subject })}
                    onClick={() => open("level", placement.subject)}
                  >
                    {t("placements.actions.change")}
                  </button>
                )
              }
            />
          ))}
        </div>
      )}
      {editing?.kind === "level" && (
        <ChangeLevelDialog
          student={student}
          subjects={subjects}
          initialSubject={editing.subject}
          onClose={() => setEditing(null)}
          onDone={setNotice}
        />
      )}
      {editing?.kind === "test" && (
        <RecordTestDialog
          student={student}
          subjects={subjects}
          initialSubject={editing.subject}
          onClose={() => setEditing(null)}
          onDone={setNotice}
        />
      )}
    </div>
  );
}
