/**
 * OneRoster errors in the 1EdTech imsx status envelope: codeMajor "failure", severity "error",
 * a description for people and one codeMinor value from the standard's vocabulary.
 */

export type CodeMinor =
  | "invalid_filter_field"
  | "invalid_selection_field"
  | "invaliddata"
  | "unauthorisedrequest"
  | "forbidden"
  | "server_busy"
  | "unknownobject"
  | "internal_server_error";

export interface ImsxStatus {
  imsx_codeMajor: "failure" | "unsupported";
  imsx_severity: "error";
  imsx_description: string;
  imsx_CodeMinor: {
    imsx_codeMinorField: {
      imsx_codeMinorFieldName: "TargetEndSystem";
      imsx_codeMinorFieldValue: CodeMinor;
    }[];
  };
}

export function imsxStatus(
  codeMinor: CodeMinor,
  description: string,
  codeMajor: ImsxStatus["imsx_codeMajor"] = "failure",
): ImsxStatus {
  return {
    imsx_codeMajor: codeMajor,
    imsx_severity: "error",
    imsx_description: description,
    imsx_CodeMinor: {
      imsx_codeMinorField: [
        { imsx_codeMinorFieldName: "TargetEndSystem", imsx_codeMinorFieldValue: codeMinor },
      ],
    },
  };
}

export class OneRosterError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 405 | 429 | 500,
    readonly codeMinor: CodeMinor,
    description: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(description);
    this.name = "OneRosterError";
  }

  toBody(): ImsxStatus {
    return imsxStatus(this.codeMinor, this.message, this.status === 405 ? "unsupported" : "failure");
  }
}
