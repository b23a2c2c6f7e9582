const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
export type LogLevel = keyof typeof LEVELS;
type Fields = Record<string, unknown>;

export function isLogLevel(value: unknown): value is LogLevel {
  return typeof value === "string" && Object.hasOwn(LEVELS, value);
}

export interface Logger {
  debug(message: string, fields?: Fields): void;
  info(message: string, fields?: Fields): void;
  warn(message: string, fields?: Fields): void;
  error(message: string, fields?: Fields): void;
}

/** One JSON object per line on stdout (errors on stderr), easy to ship to any log store. */
export function createLogger(level: LogLevel, write = defaultWrite): Logger {
  const threshold = LEVELS[level];
  const log =
    (at: Exclude<LogLevel, "silent">) =>
    (message: string, fields: Fields = {}) => {
      if (LEVELS[at] < threshold) return;
      write(at, JSON.stringify({ time: new Date().toISOString(), level: at, msg: message, ...fields }));
    };
  return { debug: log("debug"), info: log("info"), warn: log("warn"), error: log("error") };
}

function defaultWrite(level: string, line: string): void {
  (level === "error" ? process.stderr : process.stdout).write(`${line}\n`);
}
