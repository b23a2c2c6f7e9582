import { describe, expect, it } from "vitest";
import { outcomeOf, type PastDecision, reviewBlock } from "./decisions";

const confirmBy = (actorId: string): PastDecision => ({ action: "confirm", actorId });
const secondReviewer = { secondReviewer: true };

describe("who may decide an incident", () => {
  it("lets anyone decide a new incident, and nobody a decided one", () => {
    expect(reviewBlock("pending", [], "maya")).toBeNull();
    expect(reviewBlock("confirmed", [confirmBy("maya"), confirmBy("pat")], "alex")).toBe("alreadyDecided");
    expect(reviewBlock("dismissed", [], "alex")).toBe("alreadyDecided");
  });

  it("keeps the first confirmer from deciding again, and the escalator from deciding what they escalated", () => {
    expect(reviewBlock("awaiting_second", [confirmBy("maya")], "maya")).toBe("confirmedByYou");
    expect(reviewBlock("awaiting_second", [confirmBy("maya")], "pat")).toBeNull();
    const escalated: PastDecision[] = [{ action: "escalate", actorId: "pat" }];
    expect(reviewBlock("escalated", escalated, "pat")).toBe("escalatedByYou");
    expect(reviewBlock("escalated", escalated, "maya")).toBeNull();
  });

  it("gives an appeal to someone who did not confirm the strike", () => {
    const appealed: PastDecision[] = [
      confirmBy("maya"),
      confirmBy("pat"),
      { action: "appeal", actorId: "sam" },
    ];
    expect(reviewBlock("appealed", appealed, "maya")).toBe("appealOfYourStrike");
    expect(reviewBlock("appealed", appealed, "pat")).toBe("appealOfYourStrike");
    expect(reviewBlock("appealed", appealed, "alex")).toBeNull();
  });
});

describe("what a decision makes of an incident", () => {
  it("needs two different confirmers for a strike with the second-reviewer rule, one without", () => {
    expect(outcomeOf("pending", [], "confirm", secondReviewer)).toEqual({
      status: "awaiting_second",
      strikes: false,
      liftsStrike: false,
    });
    expect(outcomeOf("awaiting_second", [confirmBy("maya")], "confirm", secondReviewer)).toEqual({
      status: "confirmed",
      strikes: true,
      liftsStrike: false,
    });
    expect(outcomeOf("pending", [], "confirm", { secondReviewer: false }).status).toBe("confirmed");
    // An escalated incident someone confirmed before still counts that confirm.
    expect(outcomeOf("escalated", [confirmBy("maya")], "confirm", secondReviewer).strikes).toBe(true);
  });

  it("dismisses, escalates, and decides appeals without a new strike", () => {
    expect(outcomeOf("awaiting_second", [confirmBy("maya")], "dismiss", secondReviewer).status).toBe(
      "dismissed",
    );
    expect(outcomeOf("pending", [], "escalate", secondReviewer).status).toBe("escalated");
    expect(outcomeOf("appealed", [confirmBy("maya")], "confirm", secondReviewer)).toEqual({
      status: "confirmed",
      strikes: false,
      liftsStrike: false,
    });
    expect(outcomeOf("appealed", [confirmBy("maya")], "dismiss", secondReviewer)).toEqual({
      status: "dismissed",
      strikes: false,
      liftsStrike: true,
    });
  });
});
