import * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import * as OpenApi from "effect/http-api/OpenApi"
import { Capabilities } from "../Domain/Capabilities.js"

export class CapabilitiesApi extends HttpApiGroup.make("capabilities")
  .add(
    HttpApiEndpoint.get("capabilities", "/api/public/requests/capabilities", { success: Capabilities }).annotate(
      OpenApi.Summary,
      "What the service supports and the rules an assistant must follow"
    )
  )
  .annotate(OpenApi.Title, "Capabilities") {}
