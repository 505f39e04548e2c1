/**
 * Reading the X.509 certificates an operator installs on chargers (1.6 security extension §4.3,
 * 2.0.1 M05): a PEM text holding one certificate, read as far as the product needs it (RFC 5280
 * §4.1: the serial number, issuer, validity, subject and public key), to refuse what is not a
 * certificate and to name it as a charger names it in GetInstalledCertificateIds (RFC 6960 CertID).
 * Nothing here verifies a signature: the charger does that when it installs it.
 */
import { z } from "zod";

/** InstallCertificate's `certificate` is at most 5500 characters (both versions). */
export const CERTIFICATE_PEM_MAX = 5500;

const PEM = /^-----BEGIN CERTIFICATE-----\r?\n([A-Za-z0-9+/=\r\n]+?)\r?\n?-----END CERTIFICATE-----\r?\n?$/;

interface Tlv {
  tag: number;
  /** The whole element (tag, length and content). */
  start: number;
  contentStart: number;
  end: number;
}

/** One DER element at `offset` (X.690 §8.1: definite lengths only, as DER requires), or null when it does not fit. */
function tlv(der: Uint8Array, offset: number, limit = der.length): Tlv | null {
  if (offset + 2 > limit) return null;
  const tag = der[offset];
  let length = der[offset + 1];
  let contentStart = offset + 2;
  if (length & 0x80) {
    const count = length & 0x7f;
    if (count === 0 || count > 4 || contentStart + count > limit) return null;
    length = 0;
    for (let i = 0; i < count; i++) length = length * 256 + der[contentStart + i];
    contentStart += count;
  }
  const end = contentStart + length;
  return end > limit ? null : { tag, start: offset, contentStart, end };
}

/** The elements inside a constructed element. */
function children(der: Uint8Array, parent: Tlv): Tlv[] | null {
  const out: Tlv[] = [];
  for (let at = parent.contentStart; at < parent.end; ) {
    const child = tlv(der, at, parent.end);
    if (!child) return null;
    out.push(child);
    at = child.end;
  }
  return out;
}

const SEQUENCE = 0x30;
const INTEGER = 0x02;
const BIT_STRING = 0x03;
const CONTEXT_0 = 0xa0;
/** id-at-commonName, 2.5.4.3, as its DER OBJECT IDENTIFIER element. */
const COMMON_NAME = [0x06, 0x03, 0x55, 0x04, 0x03];

const hex = (bytes: Uint8Array) => [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");

/** RFC 5280 §4.1.2.5: UTCTime (YYMMDDHHMMSSZ, years 50–99 are 19xx) or GeneralizedTime (YYYYMMDDHHMMSSZ). */
function timeOf(der: Uint8Array, element: Tlv): string | null {
  const text = new TextDecoder().decode(der.subarray(element.contentStart, element.end));
  const utc = /^(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})Z$/.exec(text);
  const generalized = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})Z$/.exec(text);
  const parts = utc ? [String(Number(utc[1]) < 50 ? 2000 + Number(utc[1]) : 1900 + Number(utc[1])), ...utc.slice(2)] : generalized?.slice(1);
  if (!parts) return null;
  const [y, mo, d, h, mi, s] = parts;
  return `${y}-${mo}-${d}T${h}:${mi}:${s}Z`;
}

/** The common name of a Name, for showing the certificate; null without one. */
function commonNameOf(der: Uint8Array, name: Tlv): string | null {
  const bytes = der.subarray(name.contentStart, name.end);
  for (let i = 0; i + COMMON_NAME.length < bytes.length; i++) {
    if (COMMON_NAME.every((b, j) => bytes[i + j] === b)) {
      const value = tlv(bytes, i + COMMON_NAME.length);
      return value ? new TextDecoder().decode(bytes.subarray(value.contentStart, value.end)) : null;
    }
  }
  return null;
}

export interface X509Certificate {
  /** The certificate's DER bytes. */
  der: Uint8Array<ArrayBuffer>;
  /** The serial number in hex without leading zeros, as chargers report it (OCPP 2.0.1 CertificateHashDataType). */
  serialNumber: string;
  issuer: Uint8Array;
  subject: Uint8Array;
  /** The subject's public key (the BIT STRING's bits), whose hash names a root as issuer. */
  publicKey: Uint8Array;
  commonName: string | null;
  notAfter: string | null;
  /** Issuer and subject are the same name: a root, whose hash data the product can work out. */
  selfIssued: boolean;
}

const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);

/** One PEM certificate read, or null when the text is not exactly one well-formed X.509 certificate. */
export function readCertificatePem(pem: string): X509Certificate | null {
  const body = PEM.exec(pem.trim() + "\n")?.[1];
  if (!body) return null;
  let der: Uint8Array<ArrayBuffer>;
  try {
    der = Uint8Array.from(atob(body.replace(/\s+/g, "")), (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
  const certificate = tlv(der, 0);
  if (!certificate || certificate.tag !== SEQUENCE || certificate.end !== der.length) return null;
  const [tbs, algorithm, signature] = children(der, certificate) ?? [];
  if (tbs?.tag !== SEQUENCE || algorithm?.tag !== SEQUENCE || signature?.tag !== BIT_STRING) return null;
  const fields = children(der, tbs);
  if (!fields) return null;
  const [serial, , issuer, validity, subject, keyInfo] = fields[0]?.tag === CONTEXT_0 ? fields.slice(1) : fields;
  if (serial?.tag !== INTEGER || issuer?.tag !== SEQUENCE || validity?.tag !== SEQUENCE || subject?.tag !== SEQUENCE || keyInfo?.tag !== SEQUENCE) return null;
  const [, key] = children(der, keyInfo) ?? [];
  const period = children(der, validity);
  if (key?.tag !== BIT_STRING || period?.length !== 2) return null;
  const issuerBytes = der.subarray(issuer.start, issuer.end);
  const subjectBytes = der.subarray(subject.start, subject.end);
  return {
    der,
    serialNumber: hex(der.subarray(serial.contentStart, serial.end)).replace(/^0+(?=.)/, ""),
    issuer: issuerBytes,
    subject: subjectBytes,
    publicKey: der.subarray(key.contentStart + 1, key.end),
    commonName: commonNameOf(der, subject),
    notAfter: timeOf(der, period[1]),
    selfIssued: sameBytes(issuerBytes, subjectBytes),
  };
}

/** A PEM certificate as an API body field: at most InstallCertificate's length, and a certificate. */
export const certificatePem = z
  .string()
  .max(CERTIFICATE_PEM_MAX, { error: "validation.certificatePem" })
  .refine((pem) => readCertificatePem(pem) !== null, { error: "validation.certificatePem" });

/**
 * How a charger names a root it holds (security extension §6 CertificateHashDataType; RFC 6960
 * §4.1.1 CertID): SHA-256 of the issuer's DER name and of the issuer's public key, in hex, and the
 * serial number. Only a self-issued certificate is its own issuer, so only a root's can be worked
 * out from the certificate alone; null for any other.
 */
export async function rootHashData(certificate: X509Certificate) {
  if (!certificate.selfIssued) return null;
  const sha256 = async (bytes: Uint8Array) => hex(new Uint8Array(await crypto.subtle.digest("SHA-256", new Uint8Array(bytes))));
  return {
    hashAlgorithm: "SHA256" as const,
    issuerNameHash: await sha256(certificate.issuer),
    issuerKeyHash: await sha256(certificate.publicKey),
    serialNumber: certificate.serialNumber,
  };
}
