import { useState } from "react";
import { type PickedStudent, StudentPicker } from "../xp/student-picker";

/**
 * The student picker for a page that keeps the student's id in its address: the name comes from
 * the pick, or (after a reload) from what the page loaded about the student.
 */
export function StudentChoice({
  studentId,
  knownName,
  onChange,
}: {
  studentId: string | undefined;
  /** The student's name from the page's data, once loaded. */
  knownName: string | undefined;
  onChange: (studentId: string | undefined) => void;
}) {
  const [picked, setPicked] = useState<PickedStudent | null>(null);
  const selected = studentId
    ? {
        sourcedId: studentId,
        name: picked?.sourcedId === studentId ? picked.name : (knownName ?? studentId),
      }
    : null;
  return (
    <StudentPicker
      selected={selected}
      onSelect={(student) => {
        setPicked(student);
        onChange(student?.sourcedId);
      }}
    />
  );
}
