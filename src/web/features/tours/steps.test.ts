import { describe, expect, it } from "vitest";
import { TOUR_NAMES, type TourName, tourOfRole } from "../../../shared/contracts/tours";
import { DASH_ROLES } from "../../../shared/roles";
import { decideAccess, findRoute } from "../../../shared/routes";
import en from "./locales/en.json";
import es from "./locales/es.json";
import { TOUR_STEPS } from "./steps";

const catalogues = { en, es } as unknown as Record<
  string,
  Record<string, Record<string, { title?: string; text?: string }>>
>;

describe("the guided tours", () => {
  it("have the spec's number of steps per role", () => {
    expect(Object.fromEntries(TOUR_NAMES.map((tour) => [tour, TOUR_STEPS[tour].length]))).toEqual({
      student: 21,
      teacher: 7,
      parent: 10,
      administrator: 15,
    });
  });

  it("say something in English and Spanish at every step, each step once", () => {
    for (const tour of TOUR_NAMES) {
      const ids = TOUR_STEPS[tour].map((step) => step.id);
      expect(new Set(ids).size, tour).toBe(ids.length);
      for (const id of ids)
        for (const language of ["en", "es"])
          expect(catalogues[language]?.[tour]?.[id], `${language} ${tour}.${id}`).toEqual({
            title: expect.stringMatching(/\S/),
            text: expect.stringMatching(/\S/),
          });
    }
  });

  it("visit only pages every role taking the tour may open", () => {
    for (const role of DASH_ROLES) {
      const tour = tourOfRole(role);
      if (!tour) continue;
      const subject = { activeRole: role, primaryOrgId: null, classLeaderboardOrgId: null };
      for (const step of TOUR_STEPS[tour as TourName]) {
        const route = findRoute(step.path === "/app" ? "/app/" : step.path) ?? findRoute(`${step.path}/`);
        expect(route, step.path).toBeDefined();
        if (route) expect(decideAccess(route, subject), `${role} ${step.path}`).toEqual({ allowed: true });
      }
    }
  });
});
