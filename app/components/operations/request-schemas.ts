import { z } from "zod";
import type { ServerAction } from "../../../domain/ocpp/actions";
import { OCPP_REQUESTS } from "../../../domain/ocpp/schemas";
import type { ServerAction201 } from "../../../domain/ocpp/v201/actions";
import { OCPP201_REQUESTS } from "../../../domain/ocpp/v201/schemas";
import type { ConnectedVersion } from "../../../domain/schemas/equipment";
import { fieldModelOf, type CheckIssue, type FieldModel, type JsonSchema } from "~/components/schema-form/field-model";

/**
 * The request schemas of the actions the central system sends, in each protocol: the same
 * schemas the server checks `/command` against (domain/ocpp/schemas.ts, domain/ocpp/v201/schemas.ts),
 * so the form finds what the server would refuse before sending (docs/rules/console.md "Forms").
 * Loaded with `import()` when an operations form first shows: the 2.0.1 schemas are large.
 */
export interface RequestForm {
  model: FieldModel;
  check: (payload: unknown) => readonly CheckIssue[];
}

const forms = new Map<string, RequestForm>();

function schemaOf(protocol: ConnectedVersion, action: string): z.ZodType | undefined {
  if (protocol === "2.0.1") return (OCPP201_REQUESTS as Record<string, z.ZodType>)[action];
  return (OCPP_REQUESTS as Record<string, z.ZodType>)[action];
}

/**
 * The form of one action's request. The JSON schema is read as the payload leaves the form
 * (`io: "output"`: date-times keep their format); checks JSON schema cannot say stay in `check`.
 */
export function requestFormOf(protocol: ConnectedVersion, action: ServerAction | ServerAction201): RequestForm | undefined {
  const key = `${protocol}:${action}`;
  const known = forms.get(key);
  if (known) return known;
  const schema = schemaOf(protocol, action);
  if (!schema) return undefined;
  const json = z.toJSONSchema(schema, { io: "output", unrepresentable: "any" }) as JsonSchema;
  const form: RequestForm = {
    model: fieldModelOf(json),
    check: (payload) => {
      const result = schema.safeParse(payload, { reportInput: true });
      return result.success ? [] : (result.error.issues as readonly CheckIssue[]);
    },
  };
  forms.set(key, form);
  return form;
}
