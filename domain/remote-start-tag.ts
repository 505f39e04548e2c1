/**
 * The operator's own remote-start tag (docs/rules/console.md "Names"): the tag a remote start
 * without a driver's tag sends (OCPP 1.6 §6.33 RemoteStartTransaction). Until the operator names
 * one in its settings it is `REMOTE` and the operator's id, at most 20 characters (OCPP 1.6 §7.28
 * IdToken).
 */
export const operatorRemoteTag = (operatorId: number, stored: string | null | undefined): string => stored ?? `REMOTE${operatorId}`.slice(0, 20);

/** Whether a session's tag is the operator's remote-start tag; OCPP compares id tags case-insensitively. */
export const isOperatorRemoteTag = (idTag: string | null | undefined, remoteTag: string): boolean =>
  idTag != null && idTag.toUpperCase() === remoteTag.toUpperCase();
