import { describe, expect, it } from "vitest";
import { fieldsOf, limitsOf, shapesOf, typeOf } from "./schema-fields";

const components = {
  Award: {
    type: "object",
    properties: { studentId: { type: "string", description: "Whose." }, xp: { type: "number" } },
    required: ["studentId", "xp"],
  },
  Batch: {
    type: "object",
    properties: {
      events: { type: "array", minItems: 1, maxItems: 1000, items: { $ref: "#/components/schemas/Award" } },
      state: { type: "string", enum: ["queued", "failed"], default: "failed" },
      note: { anyOf: [{ type: "string", maxLength: 200 }, { type: "null" }] },
    },
    required: ["events"],
  },
};

describe("fields of a JSON Schema", () => {
  it("lists nested fields with dotted names, following components and array items", () => {
    const rows = fieldsOf({ $ref: "#/components/schemas/Batch" }, components);
    expect(rows.map((row) => [row.name, row.type, row.required])).toEqual([
      ["events", "array of Award", true],
      ["events[].studentId", "string", true],
      ["events[].xp", "number", true],
      ["state", "one of: queued, failed", false],
      ["note", "string or null", false],
    ]);
    expect(rows[0]?.limits).toEqual(["1–1000 items"]);
    expect(rows[1]?.description).toBe("Whose.");
    expect(rows[3]?.limits).toEqual(['default "failed"']);
  });

  it("says limits in words and leaves out zod's unbounded integer limits", () => {
    expect(limitsOf({ type: "integer", minimum: 1, maximum: Number.MAX_SAFE_INTEGER })).toEqual([
      "at least 1",
    ]);
    expect(limitsOf({ type: "string", maxLength: 200 })).toEqual(["at most 200 characters"]);
    expect(typeOf({ type: "string", format: "uuid" }, components)).toBe("string (uuid)");
  });

  it("reads a body that is one of several shapes as each shape with its name", () => {
    const shapes = shapesOf(
      { anyOf: [{ $ref: "#/components/schemas/Award" }, { $ref: "#/components/schemas/Batch" }] },
      components,
    );
    expect(shapes.map((shape) => shape.name)).toEqual(["Award", "Batch"]);
    expect(shapes[0]?.fields.map((field) => field.name)).toEqual(["studentId", "xp"]);
  });
});
