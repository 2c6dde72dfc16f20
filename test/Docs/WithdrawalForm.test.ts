import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { HttpClient, HttpClientRequest } from "effect/http"
import { searchBody, searchOptions } from "../support/Http.js"
import { TestServer } from "../support/Server.js"

const page = (path: string) =>
  Effect.flatMap(HttpClient.HttpClient, (client) => client.execute(HttpClientRequest.get(path))).pipe(
    Effect.flatMap((response) => Effect.map(response.text, (text) => ({ status: response.status, response, text }))),
    Effect.scoped,
    Effect.orDie
  )

describe("the standard withdrawal form (förordning (2014:19), 2005:59 2 kap. 2 § first paragraph 9)", () => {
  it.layer(TestServer({ loops: "none" }))((it) => {
    it.effect("is served by the service at a stable URL, in Swedish and English, as plain HTML", () =>
      Effect.gen(function* () {
        const form = yield* page("/withdrawal-form")
        expect(form.status).toBe(200)
        expect(form.response.headers["content-type"]).toMatch(/^text\/html/)
        expect(form.text).toContain("Standardformulär för utövande av ångerrätt")
        expect(form.text).toContain("frånträder mitt/vårt (*) avtal om tillhandahållande av följande tjänst")
        expect(form.text).toContain("Model withdrawal form")
        expect(form.text).toContain("withdraw from my/our (*) contract for the provision of the following service")
        expect(form.text).not.toMatch(/<script/i)
      })
    )

    it.effect("every option's terms carry the consumer information (2 kap. 2 and 2 a §§) and link that form", () =>
      Effect.gen(function* () {
        const options = yield* searchOptions(searchBody)
        expect(options.length).toBeGreaterThan(0)
        for (const option of options) {
          const information = option.terms.sections.find((section: any) => section.id === "consumer_information")
          expect(information).toMatchObject({
            withdrawal_days: 14,
            disputes_url: "https://www.arn.se/",
            provider: { name: option.provider.name, is_business: true }
          })
          expect(information.provider.organisation_number).toMatch(/^\d{6}-\d{4}$/)
          expect(new URL(information.withdrawal_form_url).pathname).toBe("/withdrawal-form")
          for (const text of [information.text_sv, information.text_en]) {
            expect(text).toContain(information.withdrawal_form_url)
            expect(text).toContain(information.provider.organisation_number)
            expect(text).toContain("ARN")
          }
          expect(option.terms.version).toMatch(/\+ki-[0-9a-f]{8}$/)
        }
      })
    )
  })
})
