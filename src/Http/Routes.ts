import * as HttpApi from "effect/http-api/HttpApi"
import type { Api } from "../Api.js"

export interface Route {
  readonly method: string
  /** As documented: /api/public/bookings/{booking_id}. */
  readonly template: string
  readonly pattern: RegExp
}

/** Served beside the Api by the platform's own layers, and the MCP endpoint (src/Mcp). */
const extraRoutes: ReadonlyArray<readonly [string, string]> = [
  ["GET", "/docs"],
  ["GET", "/openapi.json"],
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
