import { describe, expect, it } from "vitest";
import { amountInput, stationForm, stationInput, stationListQuery, toStationInput } from "../../domain/schemas/stations";

const valid = {
  name: "Kraków Rynek",
  address: "Rynek Główny 1, 31-042 Kraków",
  lat: "50.0617",
  lng: "19.9373",
  parkingFee: false,
  servicePhone: "+48 12 345 67 89",
  maintainer: "Serwis Południe",
  rank: 5,
  businessHours: "00:00-24:00",
  description: "Under the Cloth Hall",
};

const messages = (raw: unknown) => {
  const result = stationInput.safeParse(raw);
  return result.success ? {} : Object.fromEntries(result.error.issues.map((i) => [i.path.join("."), i.message]));
};

describe("station input", () => {
  it("accepts a complete station and normalises coordinates given as numbers or text", () => {
    expect(stationInput.parse({ ...valid, lat: 50.06170001, lng: "-019.5" })).toMatchObject({ lat: "50.0617", lng: "-19.5", rank: 5 });
    expect(stationInput.parse({ ...valid, rank: "12" }).rank).toBe(12);
  });

  it.each([
    [{ lat: "90.0000001" }, "lat", "stations.validation.latitude"],
    [{ lat: -91 }, "lat", "stations.validation.latitude"],
    [{ lat: "north" }, "lat", "stations.validation.latitude"],
    [{ lng: "180.5" }, "lng", "stations.validation.longitude"],
    [{ lng: "1.123456789" }, "lng", "stations.validation.longitude"],
    [{ lat: Infinity }, "lat", "stations.validation.latitude"],
  ])("refuses coordinates out of range or not numbers: %o", (change, field, message) => {
    expect(messages({ ...valid, ...change })[field]).toBe(message);
  });

  it("takes both coordinates or neither", () => {
    expect(messages({ ...valid, lat: "" })).toEqual({ lat: "stations.validation.coordinatesBoth" });
    const { lat: _lat, lng: _lng, ...noCoordinates } = valid;
    const parsed = stationInput.parse(noCoordinates);
    expect([parsed.lat, parsed.lng]).toEqual([undefined, undefined]);
  });

  it("needs the parking fee said either way, never read as a default, and its amount when charged", () => {
    expect(messages({ ...valid, parkingFee: undefined }).parkingFee).toBe("stations.validation.parkingFee");
    expect(messages({ ...valid, parkingFee: "yes" }).parkingFee).toBe("stations.validation.parkingFee");
    expect(messages({ ...valid, parkingFee: true })).toEqual({ parkingFeeAmount: "stations.validation.parkingFeeAmountRequired" });
    expect(messages({ ...valid, parkingFee: true, parkingFeeAmount: 2.5 }).parkingFeeAmount).toBe("stations.validation.parkingFeeAmount");
    expect(stationInput.parse({ ...valid, parkingFee: true, parkingFeeAmount: 250 }).parkingFeeAmount).toBe(250);
  });

  it("has a message for every required field", () => {
    expect(messages({})).toEqual({
      name: "stations.validation.nameRequired",
      address: "stations.validation.addressRequired",
      parkingFee: "stations.validation.parkingFee",
      servicePhone: "stations.validation.phoneRequired",
      maintainer: "stations.validation.maintainerRequired",
      rank: "stations.validation.rankRequired",
      businessHours: "stations.validation.businessHoursRequired",
      description: "stations.validation.descriptionRequired",
    });
  });

  it.each([
    [{ rank: -1 }, "rank", "stations.validation.rank"],
    [{ rank: 1.5 }, "rank", "stations.validation.rank"],
    [{ rank: "ten" }, "rank", "stations.validation.rank"],
    [{ servicePhone: "call us" }, "servicePhone", "stations.validation.phone"],
    [{ powerLimit: 22.125 }, "powerLimit", "validation.powerDecimals"],
    [{ timeZone: "Mars/Olympus" }, "timeZone", "stations.validation.timeZone"],
    [{ logoKey: "operators/1/private/x.png" }, "logoKey", "stations.validation.logo"],
    [{ name: "x".repeat(65) }, "name", "stations.validation.tooLong"],
  ])("refuses %o", (change, field, message) => {
    expect(messages({ ...valid, ...change })[field]).toBe(message);
  });

  it("refuses unknown list filters instead of ignoring them", () => {
    expect(stationListQuery.safeParse({ status: "ON" }).success).toBe(false);
    expect(stationListQuery.safeParse({ parkingFee: "maybe" }).error?.issues[0].message).toBe("stations.validation.parkingFeeFilter");
    expect(stationListQuery.parse({ parkingFee: "false", status: "VALID" })).toMatchObject({ current: 1, size: 10, parkingFee: "false" });
  });
});

describe("the console form's parking fee in the operator's currency decimals", () => {
  const form = (amount: string, decimals: number) => stationForm(decimals).safeParse({ ...valid, parkingFee: true, parkingFeeAmount: amount });

  it.each([
    ["5.255", 2, "stations.validation.decimals"],
    ["5.", 2, "stations.validation.trailingDot"],
    ["5.5", 0, "stations.validation.decimals"],
    ["abc", 2, "stations.validation.amountNumber"],
    ["", 2, "stations.validation.parkingFeeAmountRequired"],
  ])("refuses %s with %i decimals", (amount, decimals, message) => {
    expect(form(amount, decimals).error?.issues[0]).toMatchObject({ path: ["parkingFeeAmount"], message });
  });

  it("converts the amount to minor units, and drops it when parking is free", () => {
    expect(toStationInput(stationForm(2).parse({ ...valid, parkingFee: true, parkingFeeAmount: "5.5" }), 2).parkingFeeAmount).toBe(550);
    expect(toStationInput(stationForm(0).parse({ ...valid, parkingFee: true, parkingFeeAmount: "12" }), 0).parkingFeeAmount).toBe(12);
    expect(toStationInput(stationForm(2).parse({ ...valid, parkingFee: false, parkingFeeAmount: "9.99" }), 2).parkingFeeAmount).toBeUndefined();
  });
});

describe("amounts back into the form", () => {
  it.each([
    [550, 2, "5.50"],
    [5, 2, "0.05"],
    [12, 0, "12"],
    [1234, 3, "1.234"],
    [null, 2, ""],
  ])("%s minor units with %i decimals read %s", (minor, decimals, shown) => {
    expect(amountInput(minor, decimals)).toBe(shown);
  });
});
