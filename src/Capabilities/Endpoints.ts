import * as HttpApi from "effect/http-api/HttpApi"
import type * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import { Api } from "../Api.js"
import { capabilityEndpoints, endpointNameOf } from "../Domain/Capabilities.js"

type Endpoint = { readonly method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE"; readonly path: string }

/**
 * Every public operation of the Api (its path under /api/public/), as capabilities.endpoints
 * lists it: the named ones first, in their order, then the others in the Api's order, so an
 * endpoint added to the Api is listed without a word here.
 */
type PublicEndpoints = typeof capabilityEndpoints & Readonly<Record<string, Endpoint>>

export const publicEndpointsOf = <Id extends string, Groups extends HttpApiGroup.Constraint>(
  api: HttpApi.HttpApi<Id, Groups>
): PublicEndpoints => {
  const found = new Map<string, Endpoint>()
  HttpApi.reflect(api, {
    onGroup: () => {},
    onEndpoint: ({ group, endpoint }) => {
      if (!endpoint.path.startsWith("/api/public/")) return
      found.set(endpointNameOf(`${group.identifier}.${endpoint.identifier}`), {
        method: endpoint.method as Endpoint["method"],
        path: endpoint.path.replace(/:(\w+)/g, "{$1}")
      })
    }
  })
  const named = Object.keys(capabilityEndpoints)
  // What the type says of the named ones, held when the module loads: the document never names an
  // endpoint the Api does not serve at that method and path.
  const differ = Object.entries(capabilityEndpoints).filter(
    ([name, { method, path }]) => found.get(name)?.method !== method || found.get(name)?.path !== path
  )
  if (differ.length > 0)
    throw new Error(`the Api does not serve these as named: ${differ.map(([name]) => name).join(", ")}`)
  const order = [...named, ...[...found.keys()].filter((name) => !named.includes(name))]
  return Object.fromEntries(order.map((name) => [name, found.get(name)!])) as PublicEndpoints
}

export const publicEndpoints = (): PublicEndpoints => publicEndpointsOf(Api)
