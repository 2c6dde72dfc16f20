import * as HttpApi from "effect/http-api/HttpApi"
import type { Api } from "../Api.js"
import { documentationPaths } from "../Docs/Paths.js"

export interface Route {
  readonly method: string
  /** As documented: /api/public/bookings/{booking_id}. */
  readonly template: string
  readonly pattern: RegExp
}

/** Served beside the Api: the documentation's paths (src/Docs), the MCP endpoint (src/Mcp) and the calendar feed. */
const extraRoutes: ReadonlyArray<readonly [string, string]> = [
  ...Object.entries(documentationPaths).flatMap(([path, operations]) =>
    Object.keys(operations).map((method) => [method.toUpperCase(), path] as const)
  ),
  ["POST", "/mcp"],
  ["DELETE", "/mcp"],
  ["GET", "/calendar-feeds/:secret"]
]

/** Every route the server answers, read off the Api itself so no list is kept by hand. */
export const routesOf = (api: typeof Api): ReadonlyArray<Route> => {
  const routes: Array<Route> = []
  const add = (method: string, path: string) =>
    routes.push({
      method,
      template: path.replace(/:([^/]+)/g, "{$1}"),
      pattern: new RegExp(`^${path.replace(/:[^/]+/g, "[^/]+")}$`)
    })
  HttpApi.reflect(api, { onGroup: () => {}, onEndpoint: ({ endpoint }) => add(endpoint.method, endpoint.path) })
  for (const [method, path] of extraRoutes) add(method, path)
  return routes
}

export const pathOf = (url: string) => url.split("?")[0] ?? "/"
