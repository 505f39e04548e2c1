import { describe, expect, it } from "vitest";
import { z } from "zod";
import { SERVER_ACTIONS } from "../../domain/ocpp/actions";
import { SERVER_ACTIONS_201 } from "../../domain/ocpp/v201/actions";
import { CATALOGUES } from "../../domain/i18n/catalogues";
import { requestFormOf } from "~/components/operations/request-schemas";
import { fieldModelOf, formPathOf, initialDraft, issuesByField, payloadOf, type FieldModel, type JsonSchema } from "~/components/schema-form/field-model";

/** The point's Operations forms are read from the actions' JSON schemas (docs/rules/equipment.md "Point pages"). */
const asInstant = (local: string) => new Date(local).toISOString();
const objectOf = (model: FieldModel) => {
  if (model.kind !== "object") throw new Error(`expected an object, got ${model.kind}`);
  return model;
};
const field = (model: FieldModel, name: string) => {
  const found = objectOf(model).fields.find((f) => f.name === name);
  if (!found) throw new Error(`no field ${name}`);
  return found;
};

describe("the field model of a JSON schema", () => {
  it("reads objects, arrays with their bounds, enums, integers, numbers, strings, date-times and booleans", () => {
    const schema = z.toJSONSchema(
      z.strictObject({
        connectorId: z.number().int(),
        limit: z.number().multipleOf(0.1).optional(),
        purpose: z.enum(["TxProfile", "TxDefaultProfile"]),
        vendorId: z.string().max(255),
        validFrom: z.iso.datetime({ offset: true }).optional(),
        periods: z.array(z.strictObject({ startPeriod: z.number().int() })).min(1).max(3),
        keys: z.array(z.string().max(50)).optional(),
        evse: z.strictObject({ id: z.number().int() }).optional(),
        flag: z.boolean(),
        data: z.unknown().optional(),
      }),
      { io: "output" },
    ) as JsonSchema;
    const model = fieldModelOf(schema);

    // The safe-integer range zod gives every integer says nothing of the field and is dropped.
    expect(field(model, "connectorId")).toEqual({ name: "connectorId", required: true, model: { kind: "integer" } });
    expect(field(model, "limit")).toEqual({ name: "limit", required: false, model: { kind: "number", multipleOf: 0.1 } });
    expect(field(model, "purpose").model).toEqual({ kind: "enum", options: ["TxProfile", "TxDefaultProfile"] });
    expect(field(model, "vendorId").model).toEqual({ kind: "string", maxLength: 255 });
    expect(field(model, "validFrom")).toMatchObject({ required: false, model: { kind: "string", format: "date-time" } });
    expect(field(model, "periods")).toEqual({
      name: "periods",
      required: true,
      model: { kind: "array", minItems: 1, maxItems: 3, item: { kind: "object", fields: [{ name: "startPeriod", required: true, model: { kind: "integer" } }] } },
    });
    expect(field(model, "keys").model).toEqual({ kind: "array", item: { kind: "string", maxLength: 50 } });
    expect(field(model, "evse")).toMatchObject({ required: false, model: { kind: "object" } });
    expect(field(model, "flag").model).toEqual({ kind: "boolean" });
    expect(field(model, "data").model).toEqual({ kind: "json" });
  });

  it("follows local $defs references", () => {
    const schema: JsonSchema = {
      type: "object",
      properties: { idToken: { $ref: "#/$defs/IdToken" } },
      required: ["idToken"],
      $defs: { IdToken: { type: "object", properties: { type: { type: "string", enum: ["ISO14443", "Central"] } }, required: ["type"] } },
    };
    expect(field(fieldModelOf(schema), "idToken").model).toEqual({
      kind: "object",
      fields: [{ name: "type", required: true, model: { kind: "enum", options: ["ISO14443", "Central"] } }],
    });
  });

  it("builds a form for every action the central system sends, in both protocols, with a description in every language", () => {
    for (const [protocol, actions] of [
      ["1.6", SERVER_ACTIONS],
      ["2.0.1", SERVER_ACTIONS_201],
    ] as const) {
      for (const action of actions) {
        const form = requestFormOf(protocol, action);
        expect(form?.model.kind, `${protocol} ${action}`).toBe("object");
        for (const language of Object.keys(CATALOGUES) as (keyof typeof CATALOGUES)[]) {
          const actionsText = (CATALOGUES[language].pointOperations as { actions: Record<string, string> }).actions;
          expect(actionsText[action], `${language} ${action}`).toEqual(expect.any(String));
        }
      }
    }
  });
});

describe("from the form to the payload", () => {
  const model = fieldModelOf(
    z.toJSONSchema(
      z.strictObject({
        connectorId: z.number().int(),
        csChargingProfiles: z
          .strictObject({
            validFrom: z.iso.datetime({ offset: true }).optional(),
            chargingSchedulePeriod: z.array(z.strictObject({ startPeriod: z.number().int(), limit: z.number() })).min(1),
          })
          .optional(),
        keys: z.array(z.string()).optional(),
        reset: z.boolean().optional(),
        data: z.unknown().optional(),
      }),
      { io: "output" },
    ) as JsonSchema,
  );

  it("starts with required fields empty, optional objects left out and required lists at their minimum", () => {
    expect(initialDraft(model)).toEqual({ connectorId: "", csChargingProfiles: undefined, keys: [], reset: "", data: "" });
    const profile = field(model, "csChargingProfiles").model;
    expect(initialDraft(profile)).toEqual({ validFrom: "", chargingSchedulePeriod: [{ startPeriod: "", limit: "" }] });
  });

  it("sends numbers as numbers, date-times as instants, JSON as values, and leaves out what is empty and optional", () => {
    const { value, errors } = payloadOf(
      model,
      {
        connectorId: "2",
        csChargingProfiles: { validFrom: "2030-01-02T03:04", chargingSchedulePeriod: [{ startPeriod: "0", limit: "16.5" }] },
        keys: [],
        reset: "true",
        data: '{"a":[1,2]}',
      },
      asInstant,
    );
    expect(errors).toEqual({});
    expect(value).toEqual({
      connectorId: 2,
      csChargingProfiles: { validFrom: new Date("2030-01-02T03:04").toISOString(), chargingSchedulePeriod: [{ startPeriod: 0, limit: 16.5 }] },
      reset: true,
      data: { a: [1, 2] },
    });
    expect(payloadOf(model, { connectorId: "1", keys: [], reset: "", data: "plain text" }, asInstant).value).toEqual({ connectorId: 1, data: "plain text" });
  });

  it("names a number that cannot be read at its field, arrays by index", () => {
    const { errors } = payloadOf(model, { connectorId: "two", csChargingProfiles: { chargingSchedulePeriod: [{ startPeriod: "0", limit: "x" }] } }, asInstant);
    expect(errors).toEqual({
      connectorId: { key: "schemaForm.check.number" },
      "csChargingProfiles.chargingSchedulePeriod.0.limit": { key: "schemaForm.check.number" },
    });
  });
});

describe("the schema's problems at their fields", () => {
  it("turns the OCPP schemas' issues into messages at the fields they name", () => {
    const form = requestFormOf("1.6", "SetChargingProfile")!;
    const issues = form.check({
      connectorId: 1.5,
      csChargingProfiles: {
        chargingProfileId: 1,
        stackLevel: 0,
        chargingProfilePurpose: "Nope",
        chargingProfileKind: "Absolute",
        validFrom: "tomorrow",
        chargingSchedule: { chargingRateUnit: "A", chargingSchedulePeriod: [], minChargingRate: 0.15 },
      },
    });
    expect(issuesByField(issues)).toEqual({
      connectorId: { key: "schemaForm.check.integer" },
      "csChargingProfiles.chargingProfilePurpose": { key: "schemaForm.check.choice" },
      "csChargingProfiles.validFrom": { key: "schemaForm.check.dateTime" },
      "csChargingProfiles.chargingSchedule.chargingSchedulePeriod": { key: "schemaForm.check.minItems", params: { min: 1 } },
      "csChargingProfiles.chargingSchedule.minChargingRate": { key: "schemaForm.check.multipleOf", params: { step: 0.1 } },
    });
    expect(issuesByField(requestFormOf("2.0.1", "DataTransfer")!.check({ vendorId: "x".repeat(256) }))).toEqual({
      vendorId: { key: "schemaForm.check.maxLength", params: { max: 255 } },
    });
    expect(issuesByField(requestFormOf("2.0.1", "GetVariables")!.check({}))).toEqual({ getVariableData: { key: "schemaForm.check.required" } });
    expect(requestFormOf("1.6", "GetConfiguration")!.check({})).toEqual([]);
  });

  it("reads the server's field names, whose arrays are written [i], as the form's", () => {
    expect(formPathOf("chargingProfile.chargingSchedule[0].chargingSchedulePeriod[2].limit")).toBe("chargingProfile.chargingSchedule.0.chargingSchedulePeriod.2.limit");
    expect(formPathOf("[1].id")).toBe("1.id");
    expect(formPathOf("vendorId")).toBe("vendorId");
  });
});
