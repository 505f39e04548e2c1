/**
 * The body of a new operator as the platform provisions it (docs/rules/platform.md): every field
 * the form asks for, its administrator named after the code; a test overrides what it is about.
 */
export function newOperatorBody(code: string, overrides: Record<string, unknown> = {}) {
  return {
    code,
    name: `Operator ${code}`,
    edition: "basic",
    validFrom: "2025-01-01",
    validUntil: "2099-01-01",
    subscriptionAmount: 120000,
    contactName: "Jan Kowalski",
    contactPhone: "+48 600 100 200",
    contactEmail: "jan@example.com",
    timeZone: "Europe/Warsaw",
    currency: "PLN",
    defaultLanguage: "pl",
    chargeAccount: "PL61109010140000071219812874",
    domains: [],
    joinOcpi: false,
    admin: { username: `adm${code.toLowerCase()}`, email: `${code.toLowerCase()}@example.com`, name: "First Admin" },
    ...overrides,
  };
}
