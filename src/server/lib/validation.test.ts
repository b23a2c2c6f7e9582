import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/harness";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe("a shared schema's own message", () => {
  const createApp = async (acceptLanguage?: string) => {
    const cookie = await t.signIn("admin@dash.demo");
    const response = await t.request("/api/admin/apps", {
      cookie,
      json: { name: " " },
      headers: acceptLanguage ? { "accept-language": acceptLanguage } : {},
    });
    expect(response.status).toBe(400);
    return response.json();
  };

  it("is said in English by default", async () => {
    const body = await createApp();
    expect(body.issues).toEqual([{ path: "name", message: "Name the app" }]);
    expect(body.message).toBe("Invalid request: name: Name the app");
  });

  it("is said in Spanish to a reader of Spanish", async () => {
    const body = await createApp("es");
    expect(body.issues).toEqual([{ path: "name", message: "Escriba un nombre para la aplicación" }]);
    expect(body.message).toBe("Solicitud no válida: name: Escriba un nombre para la aplicación");
  });

  it("is said in Spanish before signing in, beside zod's own messages", async () => {
    const response = await t.request("/api/auth/login", {
      json: { email: "", password: 7 },
      headers: { "accept-language": "es-MX,es;q=0.9" },
    });
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.issues).toEqual([
      { path: "email", message: "Escriba su correo electrónico" },
      { path: "password", message: expect.not.stringMatching(/^validation:|Invalid input/) },
    ]);
    expect(body.message).toMatch(/^Solicitud no válida: email: Escriba su correo electrónico; password: /);
  });
});
