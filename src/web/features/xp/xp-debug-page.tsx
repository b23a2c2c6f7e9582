import { useNavigate, useSearch } from "@tanstack/react-router";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import type { searchSchemas } from "../../../shared/routes";
import { Card, PageHeader } from "../../components/page-header";
import { type PickedStudent, StudentPicker } from "./student-picker";
import { DayPicker, useXpDay, XpDayResult } from "./xp-day-view";

/** Guides and administrators: every event of a student's day and how each XP figure was computed. */
export function XpDebugPage() {
  const { t } = useTranslation("xp");
  const { date } = useSearch({ strict: false }) as z.output<typeof searchSchemas.oneDate>;
  const navigate = useNavigate();
  const [student, setStudent] = useState<PickedStudent | null>(null);
  const day = useXpDay(student?.sourcedId ?? null, date);
  const shownDate = date ?? day.data?.data.date;

  return (
    <div>
      <PageHeader title={t("common:pages./app/xp-debug.title")} description={t("xpDebug.description")} />
      <Card className="mb-6">
        <div className="flex flex-wrap items-end gap-x-6 gap-y-4">
          <StudentPicker selected={student} onSelect={setStudent} autoSelect />
          {student && shownDate && (
            <DayPicker
              date={shownDate}
              today={day.data?.data.student.today}
              onChange={(next) => navigate({ to: "/app/xp-debug", search: { date: next } })}
            />
          )}
        </div>
      </Card>
      {student ? (
        <XpDayResult query={day} />
      ) : (
        <p className="text-slate-600 dark:text-slate-300">{t("xpDebug.chooseStudent")}</p>
      )}
    </div>
  );
}
