import type {
  ComponentType,
  Ocpp201Request,
  Ocpp201Response,
  ReportDataType,
  VariableAttributeType,
  VariableCharacteristicsType,
  VariableType,
} from "../../../domain/ocpp/v201/schemas";
import type { ChargerSession } from "../session";
import type { ChargerStore } from "../store";

/**
 * An OCPP 2.0.1 charger's device model (Part 2 B05–B07): components, their variables and each
 * variable's attributes and characteristics, as the charger reported them in NotifyReport. It
 * is the charger's own data, kept in its object's SQLite (workers/ocpp/store.ts `device_model`),
 * never in D1: a report is answered from the charger's own state (docs/rules/ocpp.md "Two protocols").
 *
 * A report may come in several messages (`seqNo` from 0, `tbc` while more follow): the parts wait
 * in `device_model_parts` and the model changes only when the last part has come and none is
 * missing, so a reader never sees half a report. The report of a FullInventory this server asked
 * for (GetBaseReport, B07) replaces the model; any other report (a ConfigurationInventory, a
 * report someone else asked for) updates the variables it names.
 */

type ReportBase = Ocpp201Request<"GetBaseReport">["reportBase"];
type Attribute = Omit<VariableAttributeType, "customData">;
type Characteristics = Omit<VariableCharacteristicsType, "customData">;

/** A variable of the model as the API shows it (2.0.1's own shapes, defaults filled in: Actual, ReadWrite). */
export interface DeviceVariable {
  component: { name: string; instance?: string; evse?: { id: number; connectorId?: number } };
  variable: { name: string; instance?: string };
  attributes: (Attribute & { type: NonNullable<Attribute["type"]>; mutability: NonNullable<Attribute["mutability"]> })[];
  characteristics?: Characteristics;
}

/** The GetBaseReport requests this object sent lately, by requestId: how their reports land. */
const REQUESTS_KEY = "deviceModel.requests";
const REQUESTS_KEPT = 8;
/** When the model last changed from a whole report, and which. */
const REPORTED_KEY = "deviceModel.reported";
/** Parts of a report that never finished are dropped after this long. */
const PARTS_KEPT_MS = 60 * 60 * 1000;

/**
 * Never stored, whatever the charger says: the Basic-auth password is the charger's key, of which
 * this server keeps only a keyed hash (docs/decisions/0008-charger-keys-as-keyed-hmac.md), and
 * WriteOnly values have no business in a report (Part 2, VariableAttributeType).
 */
const isSecret = (component: string, variable: string) => component.toLowerCase() === "securityctrlr" && variable.toLowerCase() === "basicauthpassword";

type Row = {
  component: string;
  component_instance: string;
  evse_id: number;
  connector_id: number;
  variable: string;
  variable_instance: string;
  attributes: string;
  characteristics: string | null;
};

/** The row key of a component and variable: absent instances are '', absent EVSE and connector 0 (EVSE ids start at 1). */
const keyOf = (component: ComponentType, variable: VariableType) => [
  component.name,
  component.instance ?? "",
  component.evse?.id ?? 0,
  component.evse?.connectorId ?? 0,
  variable.name,
  variable.instance ?? "",
];

const KEY_MATCH = "component = ? AND component_instance = ? AND evse_id = ? AND connector_id = ? AND variable = ? AND variable_instance = ?";

function attributesOf(data: ReportDataType): Attribute[] {
  const secret = isSecret(data.component.name, data.variable.name);
  return data.variableAttribute.map(({ customData: _custom, value, ...attribute }) => {
    const mutability = attribute.mutability ?? "ReadWrite";
    const kept = value !== undefined && mutability !== "WriteOnly" && !secret;
    return { ...attribute, type: attribute.type ?? "Actual", mutability, ...(kept && { value }) };
  });
}

/** B07: the GetBaseReport this object is about to send, so that its report lands as it should. */
export function reportRequested(store: ChargerStore, requestId: number, reportBase: ReportBase) {
  const requests = store.get<Record<string, ReportBase>>(REQUESTS_KEY) ?? {};
  const kept = Object.entries(requests).slice(-(REQUESTS_KEPT - 1));
  store.put(REQUESTS_KEY, Object.fromEntries([...kept, [String(requestId), reportBase]]));
}

/** B07 NotifyReport: a part of a report; the last one lands the whole report at once. */
export async function notifyReport(session: ChargerSession, request: Ocpp201Request<"NotifyReport">): Promise<Ocpp201Response<"NotifyReport">> {
  landPart(session.store, request, session.now());
  return {};
}

function landPart(store: ChargerStore, request: Ocpp201Request<"NotifyReport">, now: number) {
  const sql = store.database();
  const { requestId, seqNo } = request;
  // A report starting again (seqNo 0) drops what came of it before; parts of reports that never finished go.
  if (seqNo === 0) sql.exec("DELETE FROM device_model_parts WHERE request_id = ?", requestId);
  sql.exec("DELETE FROM device_model_parts WHERE at < ?", now - PARTS_KEPT_MS);
  if (request.tbc) {
    sql.exec(
      "INSERT OR REPLACE INTO device_model_parts (request_id, seq_no, at, tbc, report_data) VALUES (?, ?, ?, 1, ?)",
      requestId,
      seqNo,
      now,
      JSON.stringify(request.reportData ?? []),
    );
    return;
  }
  const earlier = sql
    .exec<{ seq_no: number; report_data: string }>("SELECT seq_no, report_data FROM device_model_parts WHERE request_id = ? AND seq_no < ? ORDER BY seq_no", requestId, seqNo)
    .toArray();
  sql.exec("DELETE FROM device_model_parts WHERE request_id = ?", requestId);
  const requests = store.get<Record<string, ReportBase>>(REQUESTS_KEY) ?? {};
  const base = requests[String(requestId)];
  if (base) {
    delete requests[String(requestId)];
    store.put(REQUESTS_KEY, requests);
  }
  // A part missing (the charger restarted within the report): the model stays as it was.
  if (earlier.length !== seqNo || earlier.some((part, i) => part.seq_no !== i)) {
    console.warn(`device model report ${requestId} came incomplete (${earlier.length + 1} of ${seqNo + 1} parts); the model is unchanged`);
    return;
  }
  const data = [...earlier.flatMap((part) => JSON.parse(part.report_data) as ReportDataType[]), ...(request.reportData ?? [])];
  if (base === "FullInventory") sql.exec("DELETE FROM device_model");
  for (const entry of data) {
    const characteristics = entry.variableCharacteristics && (({ customData: _custom, ...rest }) => rest)(entry.variableCharacteristics);
    sql.exec(
      `INSERT INTO device_model (component, component_instance, evse_id, connector_id, variable, variable_instance, attributes, characteristics)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT DO UPDATE SET attributes = excluded.attributes, characteristics = coalesce(excluded.characteristics, characteristics)`,
      ...keyOf(entry.component, entry.variable),
      JSON.stringify(attributesOf(entry)),
      characteristics ? JSON.stringify(characteristics) : null,
    );
  }
  store.put(REPORTED_KEY, { requestId, reportBase: base ?? null, generatedAt: request.generatedAt, variables: data.length, at: now });
}

const variableOf = (row: Row): DeviceVariable => ({
  component: {
    name: row.component,
    ...(row.component_instance && { instance: row.component_instance }),
    ...(row.evse_id > 0 && { evse: { id: row.evse_id, ...(row.connector_id > 0 && { connectorId: row.connector_id }) } }),
  },
  variable: { name: row.variable, ...(row.variable_instance && { instance: row.variable_instance }) },
  attributes: JSON.parse(row.attributes) as DeviceVariable["attributes"],
  ...(row.characteristics && { characteristics: JSON.parse(row.characteristics) as Characteristics }),
});

/** `%`, `_` and the escape itself are literal in a search. */
const likePattern = (search: string) => `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * One page of the model, in the order of its components (by EVSE and connector) and variables;
 * `search` keeps the variables whose component or variable name contains it (case-insensitive).
 */
/** One connector of an EVSE as the charger reports it: its last status (G01) and its type from the device model. */
export interface EvseConnector {
  evseId: number;
  connectorId: number;
  status: string | null;
  connectorType: string | null;
}

/**
 * The EVSEs and their connectors as the charger reports them (docs/decisions/0078-one-charger-model-two-protocols.md):
 * each connector named by a StatusNotification or by a `Connector` component of the device model,
 * with its last status and its `ConnectorType` (Part 2 B07; a cCCS2, cType2… word).
 */
export function evseConnectorsOf(store: ChargerStore, plugs: Record<string, Record<string, string>> = {}): EvseConnector[] {
  const found = new Map<string, EvseConnector>();
  const at = (evseId: number, connectorId: number) => {
    const key = `${evseId}/${connectorId}`;
    let connector = found.get(key);
    if (!connector) found.set(key, (connector = { evseId, connectorId, status: null, connectorType: null }));
    return connector;
  };
  const types = store
    .database()
    .exec<{ evse_id: number; connector_id: number; attributes: string }>(
      "SELECT evse_id, connector_id, attributes FROM device_model WHERE component = 'Connector' AND variable = 'ConnectorType' AND evse_id > 0 AND connector_id > 0",
    )
    .toArray();
  for (const row of types) {
    const attributes = JSON.parse(row.attributes) as Attribute[];
    at(row.evse_id, row.connector_id).connectorType = (attributes.find((a) => (a.type ?? "Actual") === "Actual") ?? attributes[0])?.value ?? null;
  }
  for (const [evseId, connectors] of Object.entries(plugs)) {
    for (const [connectorId, status] of Object.entries(connectors)) at(Number(evseId), Number(connectorId)).status = status;
  }
  return [...found.values()].sort((a, b) => a.evseId - b.evseId || a.connectorId - b.connectorId);
}

export function deviceModelPage(store: ChargerStore, page: { current: number; size: number; search?: string }, plugs?: Record<string, Record<string, string>>) {
  const sql = store.database();
  const search = page.search?.trim();
  const where = search ? "WHERE component LIKE ?1 ESCAPE '\\' OR variable LIKE ?1 ESCAPE '\\'" : "";
  const args = search ? [likePattern(search)] : [];
  const total = sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM device_model ${where}`, ...args).one().n;
  const limits = search ? "LIMIT ?2 OFFSET ?3" : "LIMIT ?1 OFFSET ?2";
  const rows = sql
    .exec<Row>(
      `SELECT * FROM device_model ${where}
        ORDER BY component, evse_id, connector_id, component_instance, variable, variable_instance ${limits}`,
      ...args,
      page.size,
      (page.current - 1) * page.size,
    )
    .toArray();
  const reported = store.get<{ requestId: number; reportBase: ReportBase | null; generatedAt: string; at: number }>(REPORTED_KEY) ?? null;
  return {
    records: rows.map(variableOf),
    total,
    current: page.current,
    size: page.size,
    reportedAt: reported ? new Date(reported.at).toISOString() : null,
    generatedAt: reported?.generatedAt ?? null,
    evses: evseConnectorsOf(store, plugs),
  };
}

/** The mutability of a variable's attribute as last reported, or undefined when the model does not have it. */
export function mutabilityOf(store: ChargerStore, component: ComponentType, variable: VariableType, type = "Actual") {
  const row = store
    .database()
    .exec<{ attributes: string }>(`SELECT attributes FROM device_model WHERE ${KEY_MATCH}`, ...keyOf(component, variable))
    .toArray()[0];
  if (!row) return undefined;
  return (JSON.parse(row.attributes) as Attribute[]).find((a) => (a.type ?? "Actual") === type)?.mutability ?? undefined;
}

/** A value the charger confirmed (read, or taken by a set) becomes the model's, for variables the model has and may show. */
function valueSeen(store: ChargerStore, component: ComponentType, variable: VariableType, type: string, value: string) {
  if (isSecret(component.name, variable.name)) return;
  const sql = store.database();
  const key = keyOf(component, variable);
  const row = sql.exec<{ attributes: string }>(`SELECT attributes FROM device_model WHERE ${KEY_MATCH}`, ...key).toArray()[0];
  if (!row) return;
  const attributes = JSON.parse(row.attributes) as Attribute[];
  const attribute = attributes.find((a) => (a.type ?? "Actual") === type);
  if (!attribute || attribute.mutability === "WriteOnly" || attribute.value === value) return;
  attribute.value = value;
  sql.exec(`UPDATE device_model SET attributes = ? WHERE ${KEY_MATCH}`, JSON.stringify(attributes), ...key);
}

const sameTarget = (a: { component: ComponentType; variable: VariableType; attributeType?: string }, b: typeof a) =>
  JSON.stringify(keyOf(a.component, a.variable).map((k) => (typeof k === "string" ? k.toLowerCase() : k))) ===
    JSON.stringify(keyOf(b.component, b.variable).map((k) => (typeof k === "string" ? k.toLowerCase() : k))) && (a.attributeType ?? "Actual") === (b.attributeType ?? "Actual");

/**
 * B05–B06: the answer to a GetVariables or SetVariables, however it was sent (the configuration
 * tab, `/command`, a 1.6 configuration word translated), keeps the model current: a value read,
 * or set and taken (Accepted, or RebootRequired: stored, applied after the restart).
 */
export function learnFromReply(store: ChargerStore, action: string, request: unknown, response: unknown) {
  if (action === "GetVariables") {
    for (const result of (response as Ocpp201Response<"GetVariables">).getVariableResult) {
      if (result.attributeStatus === "Accepted" && result.attributeValue !== undefined) {
        valueSeen(store, result.component, result.variable, result.attributeType ?? "Actual", result.attributeValue);
      }
    }
  } else if (action === "SetVariables") {
    const asked = (request as Ocpp201Request<"SetVariables">).setVariableData;
    for (const result of (response as Ocpp201Response<"SetVariables">).setVariableResult) {
      if (result.attributeStatus !== "Accepted" && result.attributeStatus !== "RebootRequired") continue;
      const set = asked.find((entry) => sameTarget(entry, result));
      if (set) valueSeen(store, set.component, set.variable, set.attributeType ?? "Actual", set.attributeValue);
    }
  }
}
