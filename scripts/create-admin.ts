/**
 * Creates the first administrator of a school that starts without demo data:
 *   npm run create-admin -- --email head@school.org [--given-name Ada] [--family-name Lovelace]
 *                           [--organisation "Springfield District"] [--password-stdin]
 * The password is asked for on a terminal, read from standard input with --password-stdin,
 * or generated and printed once when neither is possible.
 */
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { configuredDatabase, openDatabase } from "../src/server/db/client";
import { createAdministrator } from "../src/server/domains/auth/admin-account";
import { generatePassword } from "../src/server/domains/auth/password";
import { readEnv } from "../src/server/env";
import { createLogger } from "../src/server/lib/logger";
import { PASSWORD_MIN_LENGTH, PASSWORD_RULES } from "../src/shared/password-policy";

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  let text = "";
  for await (const chunk of stream) text += chunk;
  return text.replace(/\r?\n$/, "");
}

/** Asks for the password on the terminal without echoing it. */
function promptHidden(question: string): Promise<string> {
  return new Promise((resolve) => {
    const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
    const write = (rl as unknown as { _writeToOutput: (text: string) => void })._writeToOutput;
    (rl as unknown as { _writeToOutput: (text: string) => void })._writeToOutput = (text: string) => {
      write.call(rl, text.startsWith(question) ? question : "");
    };
    rl.question(question, (answer) => {
      rl.close();
      process.stdout.write("\n");
      resolve(answer);
    });
  });
}

async function main() {
  const { values } = parseArgs({
    options: {
      email: { type: "string" },
      "given-name": { type: "string", default: "School" },
      "family-name": { type: "string", default: "Administrator" },
      organisation: { type: "string", default: "My School District" },
      "password-stdin": { type: "boolean", default: false },
    },
  });
  if (!values.email) {
    throw new Error(
      "Usage: npm run create-admin -- --email someone@school.org [--given-name …] [--family-name …]",
    );
  }

  const words = {
    email: values.email,
    username: values.email,
    givenName: values["given-name"],
    familyName: values["family-name"],
  };
  let password: string;
  let isGenerated = false;
  if (values["password-stdin"]) {
    password = await readAll(process.stdin);
  } else if (process.stdin.isTTY) {
    process.stdout.write(`The password:\n${PASSWORD_RULES.map((rule) => `  - ${rule.text}`).join("\n")}\n`);
    password = await promptHidden(
      `Password (at least ${PASSWORD_MIN_LENGTH} characters, empty to generate one): `,
    );
    if (!password) {
      password = generatePassword(words);
      isGenerated = true;
    }
  } else {
    password = generatePassword(words);
    isGenerated = true;
  }

  const env = readEnv();
  // Same lock as the server; losing it mid-way ends the process before anything is committed.
  const database = await openDatabase(
    configuredDatabase(env, createLogger(env.LOG_LEVEL), () => process.exit(1)),
  );
  try {
    await database.migrate();
    const admin = await createAdministrator(database.db, {
      email: values.email,
      password,
      givenName: values["given-name"],
      familyName: values["family-name"],
      organisationName: values.organisation,
    });
    process.stdout.write(`Created administrator ${admin.email} of ${admin.organisation.name}.\n`);
    if (isGenerated)
      process.stdout.write(`Password: ${password}\nKeep it safe: it is shown only this once.\n`);
  } finally {
    await database.close();
  }
}

main().catch((error) => {
  process.stderr.write(`create-admin: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
