import { describe, expect, it } from "@effect/vitest"
import { catalogVocabulary } from "../../src/Catalog/Catalog.js"
import { catalogData } from "../../src/Catalog/CatalogData.js"
import { normalWords, similarity, suggestJobType, suggestVertical } from "../../src/Domain/Suggestions.js"

/** The catalog's words as the Catalog service builds them. */
const vocabulary = catalogVocabulary(catalogData)

describe("suggestions for a vertical or job type we do not have", () => {
  it("normalises case, diacritics and separators", () => {
    expect(normalWords("  Städ-Ning_ÅÄÖ ")).toBe("stad ning aao")
    expect(similarity("faucet_install", "install faucet")).toBe(1)
    expect(similarity("", "install faucet")).toBe(0)
  })

  it("names the supported vertical meant by a label or synonym, in Swedish or English", () => {
    const cases = [
      ["plumbing", "vvs"],
      ["Rörmokare", "vvs"],
      ["electrical", "electrician"],
      ["Elektrisk", "electrician"],
      ["el", "electrician"],
      ["städning", "cleaning"],
      ["CLEANERS", "cleaning"],
      ["flytt", "moving"],
      ["flyttfirma", "moving"],
      ["removals", "moving"]
    ] as const
    for (const [said, meant] of cases) {
      expect(suggestVertical(vocabulary, said, "unknown_job"), said).toEqual({ verticalId: meant, bookable: true })
    }
  })

  it("keeps the job type when it is the vertical's, and finds the vertical of a job type's own word", () => {
    expect(suggestVertical(vocabulary, "plumbing", "install_faucet")).toEqual({
      verticalId: "vvs",
      bookable: true,
      jobTypeId: "install_faucet"
    })
    // Flyttstädning is cleaning's move-out, not moving, though it starts with "flytt".
    expect(suggestVertical(vocabulary, "flyttstädning", "x")).toEqual({
      verticalId: "cleaning",
      bookable: true,
      jobTypeId: "cleaning_move_out"
    })
    expect(suggestVertical(vocabulary, "home-services", "cleaning_window")).toEqual({
      verticalId: "cleaning",
      bookable: true,
      jobTypeId: "cleaning_window"
    })
  })

  it("names a vertical listed as not bookable yet as not bookable, and guesses nothing from noise", () => {
    expect(suggestVertical(vocabulary, "målare", "x")).toEqual({ verticalId: "painting", bookable: false })
    expect(suggestVertical(vocabulary, "gardener", "x")).toEqual({ verticalId: "gardening", bookable: false })
    for (const noise of ["", "quantum", "xyz", "a", "hairdresser"]) {
      expect(suggestVertical(vocabulary, noise, "x"), noise).toBeUndefined()
    }
  })

  it("every supported vertical's own labels and synonyms lead back to it", () => {
    for (const vertical of vocabulary.filter((v) => v.bookable)) {
      for (const word of vertical.words) {
        expect(suggestVertical(vocabulary, word, "x")?.verticalId, word).toBe(vertical.verticalId)
      }
    }
  })

  it("names the job type meant: another vertical's by its id, a misspelt or reordered one, none when unclear", () => {
    expect(suggestJobType(vocabulary, "electrician", "install_faucet")).toEqual({
      verticalId: "vvs",
      bookable: true,
      jobTypeId: "install_faucet"
    })
    expect(suggestJobType(vocabulary, "vvs", "install_fauset")?.jobTypeId).toBe("install_faucet")
    expect(suggestJobType(vocabulary, "vvs", "faucet_install")?.jobTypeId).toBe("install_faucet")
    expect(suggestJobType(vocabulary, "cleaning", "window_cleaning")?.jobTypeId).toBe("cleaning_window")
    expect(suggestJobType(vocabulary, "cleaning", "fönsterputs")?.jobTypeId).toBe("cleaning_window")
    expect(suggestJobType(vocabulary, "vvs", "zzzz")).toBeUndefined()
    expect(suggestJobType(vocabulary, "vvs", "")).toBeUndefined()
  })
})
