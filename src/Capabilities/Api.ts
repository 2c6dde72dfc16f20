import * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import * as OpenApi from "effect/http-api/OpenApi"
import { Capabilities } from "../Domain/Capabilities.js"
import { documented } from "../Http/OperationDocs.js"
import { capabilitiesExample } from "./Examples.js"

export class CapabilitiesApi extends HttpApiGroup.make("capabilities")
  .add(
    HttpApiEndpoint.get("capabilities", "/api/public/requests/capabilities", { success: Capabilities }).annotateMerge(
      documented("What the service supports and the rules an assistant must follow", {
        example: capabilitiesExample,
        description:
          "The capabilities document: supported verticals and job types, required fields, the booking lifecycle and the rules an assistant must follow. Cached with an ETag: send `If-None-Match` to get 304.",
        cached: true
      })
    )
  )
  .annotate(OpenApi.Title, "Capabilities")
  .annotate(
    OpenApi.Description,
    "What the service supports today: verticals, job types, rules an assistant must follow."
  ) {}
