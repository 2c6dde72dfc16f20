import * as HttpApi from "effect/http-api/HttpApi"
import { Api } from "../Api.js"
import { capabilityEndpoints, endpointNameOf } from "../Domain/Capabilities.js"

type Endpoint = { readonly method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE"; readonly path: string }

/**
 * Every public operation of the Api (its path under /api/public/), as capabilities.endpoints
 * lists it: the named ones first, in their order, then the others in the Api's order, so an
 * endpoint added to the Api is listed without a word here.
 */
export const publicEndpoints = (): typeof capabilityEndpoints & Readonly<Record<string, Endpoint>> => {
  const found = new Map<string, Endpoint>()
  HttpApi.reflect(Api, {
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
  const order = [...named, ...[...found.keys()].filter((name) => !named.includes(name))]
  return Object.fromEntries(order.map((name) => [name, found.get(name)!])) as never
}
