import { describe, expect, it } from "vitest";
import { cardInput, cpfValid, customerForm, customerRulesOf, groupInput, toCustomerInput } from "../../domain/schemas/drivers";

describe("customer and card rules shared by the forms and the API (docs/rules/drivers.md)", () => {
  it.each([
    ["529.982.247-25", true],
    ["52998224725", true],
    ["111.444.777-35", true],
    ["529.982.247-24", false],
    ["529.982.247-15", false],
    ["111.111.111-11", false],
    ["5299822472", false],
    ["529-982-247-25", false],
  ])("checks the CPF %s by its check digits: %s", (cpf, valid) => {
    expect(cpfValid(cpf)).toBe(valid);
  });

  it("takes the credit limit as typed in the currency's decimals and sends minor units", () => {
    const form = customerForm(2, customerRulesOf("PL", { gender: true, zipCode: true, evModel: true }));
    const base = { firstName: "A", lastName: "B", gender: "MALE", email: "a@example.com", country: "pl", zipCode: "00-001", evModel: "Zoe" };
    const parsed = form.parse({ ...base, overdraftCredit: "12.50" });
    expect(toCustomerInput(parsed, 2)).toMatchObject({ overdraftCredit: 1250, country: "PL" });
    expect(form.safeParse({ ...base, overdraftCredit: "1.234" }).error?.issues[0]).toMatchObject({ path: ["overdraftCredit"], message: "drivers.validation.overdraftDecimals" });
    expect(form.safeParse({ ...base, overdraftCredit: "-5" }).success).toBe(false);
  });

  it("keeps only the delivery details of the card's delivery type", () => {
    const take = cardInput.parse({ idTag: "AB12", deliveryType: "TAKE", pickupNumber: "7", trackingNumber: "Z1", recipientName: "Ewa" });
    expect(take).toMatchObject({ pickupNumber: "7", trackingNumber: null, recipientName: null });
    const send = cardInput.parse({ idTag: "AB12", deliveryType: "SEND", pickupNumber: "7", trackingNumber: "Z1" });
    expect(send).toMatchObject({ pickupNumber: null, trackingNumber: "Z1" });
    // Parsing what was parsed gives the same (routes parse before the verb does).
    expect(cardInput.parse(cardInput.parse({ idTag: "AB12", deliveryType: "TAKE", expiryDate: "2030-01-01T01:00:00+01:00" }))).toMatchObject({ expiryDate: "2030-01-01T00:00:00.000Z" });
  });

  it("needs a leader among the group's members", () => {
    expect(groupInput.safeParse({ name: "G", code: "G1", leaderId: 1, memberIds: [2] }).error?.issues[0]).toMatchObject({ path: ["leaderId"], message: "drivers.validation.leaderMember" });
    expect(groupInput.parse({ name: "G", code: "G1", leaderId: 1, memberIds: [1, 1, 2] }).memberIds).toEqual([1, 2]);
  });
});
