import { describe, expect, it } from "vitest";
import { message } from "../../lib/i18n";
import { sayChange } from "./roster-changes";

describe("sayChange", () => {
  const onboarded = (pending: string[]) =>
    message("rostering:changes.onboarded", {
      student: "Nia Okafor",
      grade: "KG",
      gradeNumber: "KG",
      school: "Maple Grove School",
      families: 1,
      classes: 3,
      pendingCount: pending.length,
      pending,
    });

  it("joins names in English as summaries always have, and as Spanish lists them", () => {
    const said = onboarded(["Sam Johnson", "Grace Miller", "Ana Ruiz"]);
    expect(sayChange(said, "en")).toBe(
      "Onboarded Nia Okafor (kindergarten) at Maple Grove School with 1 parent or guardian and 3 classes, asking to link Sam Johnson and Grace Miller and Ana Ruiz",
    );
    expect(sayChange(said, "es")).toBe(
      "Se incorporó a Nia Okafor (kínder) en Maple Grove School con 1 padre, madre o tutor legal y 3 clases, y se pidió vincular a Sam Johnson, Grace Miller y Ana Ruiz",
    );
  });

  it("leaves out the links asked for when there are none, and says a text as it is", () => {
    expect(sayChange(onboarded([]), "es")).toBe(
      "Se incorporó a Nia Okafor (kínder) en Maple Grove School con 1 padre, madre o tutor legal y 3 clases",
    );
    expect(sayChange("Ana Ruiz changed their password", "es")).toBe("Ana Ruiz changed their password");
  });
});
