import type * as OpenApi from "effect/http-api/OpenApi"

/**
 * The API reference as one self-contained HTML page rendered from the OpenAPI document: no
 * script, no font, no stylesheet or image from anywhere, so it works offline and stays small.
 */

type Json = Record<string, any>

const html = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;")

const code = (text: string) => `<code>${html(text)}</code>`

const refName = (ref: string) => ref.replace(/^#\/components\/schemas\//, "")

const anchor = (text: string) => text.replace(/[^A-Za-z0-9_-]+/g, "-")

const literal = (value: unknown) => code(JSON.stringify(value))

/** Error bodies are one shape told apart by `error`; they are listed by code, not drawn each time. */
const errorCodes = (schema: Json | undefined): Array<string> | undefined => {
  if (schema === undefined) return undefined
  const variants: Array<Json> = Array.isArray(schema.anyOf) ? schema.anyOf : [schema]
  const codes = variants.map((variant) =>
    variant?.properties?.ok?.enum?.[0] === false ? variant.properties.error?.enum?.[0] : undefined
  )
  return codes.every((each): each is string => typeof each === "string") ? codes : undefined
}

const constraints = (schema: Json): Array<string> => {
  const parts: Array<string> = []
  if (schema.format) parts.push(`format ${code(schema.format)}`)
  if (schema.minLength !== undefined && schema.maxLength !== undefined) {
    parts.push(`${schema.minLength} to ${schema.maxLength} characters`)
  } else if (schema.minLength !== undefined) {
    parts.push(`at least ${schema.minLength} characters`)
  } else if (schema.maxLength !== undefined) {
    parts.push(`at most ${schema.maxLength} characters`)
  }
  if (schema.minimum !== undefined) parts.push(`≥ ${schema.minimum}`)
  if (schema.exclusiveMinimum !== undefined) parts.push(`> ${schema.exclusiveMinimum}`)
  if (schema.maximum !== undefined) parts.push(`≤ ${schema.maximum}`)
  if (schema.exclusiveMaximum !== undefined) parts.push(`< ${schema.exclusiveMaximum}`)
  if (schema.minItems !== undefined) parts.push(`at least ${schema.minItems} items`)
  if (schema.maxItems !== undefined) parts.push(`at most ${schema.maxItems} items`)
  if (schema.pattern) parts.push(`pattern ${code(schema.pattern)}`)
  return parts
}

/** Descriptions Effect derives from the schema itself ("a string matching …") say nothing the type does not. */
const meaningful = (description: unknown) =>
  typeof description === "string" && !/^an? (string|number|integer|non empty string|boolean)\b/.test(description)
    ? description
    : undefined

/** One line for a schema: its type and bounds, with nested objects drawn below it. */
const schemaHtml = (schema: Json | boolean | undefined, depth: number): string => {
  if (schema === undefined || schema === true) return "any JSON value"
  if (schema === false) return "nothing"
  if (typeof schema.$ref === "string") {
    const name = refName(schema.$ref)
    return `<a href="#schema-${anchor(name)}">${html(name)}</a>`
  }
  const description = meaningful(schema.description)
  const note = description ? ` <span class="note">${html(description)}</span>` : ""
  const variants: Array<Json> | undefined = schema.anyOf ?? schema.oneOf
  if (Array.isArray(variants)) {
    const codes = errorCodes(schema)
    if (codes) return `error body: ${codes.map(code).join(", ")}${note}`
    return `one of:<ol class="variants">${variants.map((variant) => `<li>${schemaHtml(variant, depth + 1)}</li>`).join("")}</ol>${note}`
  }
  if (Array.isArray(schema.allOf)) {
    return `all of:<ol class="variants">${schema.allOf.map((part: Json) => `<li>${schemaHtml(part, depth + 1)}</li>`).join("")}</ol>${note}`
  }
  if (Array.isArray(schema.enum)) {
    return `${schema.enum.length === 1 ? "exactly" : "one of"} ${schema.enum.map(literal).join(", ")}${note}`
  }
  if (schema.const !== undefined) return `exactly ${literal(schema.const)}${note}`
  if (schema.type === "array") {
    const bounds = constraints(schema)
    return `array of ${schemaHtml(schema.items, depth + 1)}${bounds.length ? ` (${bounds.join(", ")})` : ""}${note}`
  }
  if (schema.type === "object" || schema.properties !== undefined) return objectHtml(schema, depth) + note
  const type = Array.isArray(schema.type) ? schema.type.join(" or ") : (schema.type ?? "any JSON value")
  const bounds = constraints(schema)
  return `${html(String(type))}${bounds.length ? ` (${bounds.join(", ")})` : ""}${note}`
}

const objectHtml = (schema: Json, depth: number): string => {
  const properties = Object.entries<Json>(schema.properties ?? {})
  const required = new Set<string>(schema.required ?? [])
  const extra = schema.additionalProperties
  const others =
    extra === false
      ? properties.length > 0
        ? "no other properties"
        : ""
      : extra === undefined || extra === true || (typeof extra === "object" && Object.keys(extra).length === 0)
        ? "any other properties"
        : `other properties: ${schemaHtml(extra, depth + 1)}`
  if (properties.length === 0) return `object${others ? ` (${others})` : ""}`
  const rows = properties
    .map(
      ([name, property]) =>
        `<li>${code(name)}${required.has(name) ? ' <span class="req">required</span>' : ""}: ${schemaHtml(property, depth + 1)}</li>`
    )
    .join("")
  return `object${others ? ` <span class="note">(${others})</span>` : ""}<ul class="props">${rows}</ul>`
}

const statusWords: Record<string, string> = {
  "200": "OK",
  "201": "Created",
  "304": "Not Modified",
  "400": "Bad Request",
  "401": "Unauthorized",
  "404": "Not Found",
  "405": "Method Not Allowed",
  "409": "Conflict",
  "413": "Payload Too Large",
  "415": "Unsupported Media Type",
  "422": "Unprocessable Content",
  "429": "Too Many Requests",
  "500": "Internal Server Error",
  "503": "Service Unavailable"
}

const bodyHtml = (content: Json | undefined) =>
  Object.entries<Json>(content ?? {})
    .map(
      ([type, media]) => `<p class="media">${code(type)}</p><div class="schema">${schemaHtml(media.schema, 0)}</div>`
    )
    .join("")

const securityHtml = (operation: Json, spec: Json) => {
  const requirements: Array<Json> = operation.security ?? spec.security ?? []
  if (requirements.length === 0) return '<p class="auth open">No token needed.</p>'
  const schemes = spec.components?.securitySchemes ?? {}
  const ways = requirements.flatMap((requirement) =>
    Object.keys(requirement).map((name) => {
      const scheme = schemes[name] ?? {}
      return scheme.type === "http" && scheme.scheme === "bearer"
        ? code("Authorization: Bearer <token>")
        : scheme.type === "apiKey"
          ? code(`${scheme.name}: <token>`)
          : code(name)
    })
  )
  return `<p class="auth">Needs a partner token: ${ways.join(" or ")}.</p>`
}

const operationHtml = (path: string, method: string, operation: Json, spec: Json) => {
  const id = anchor(operation.operationId ?? `${method}-${path}`)
  const parameters: Array<Json> = operation.parameters ?? []
  const parameterRows = parameters
    .map(
      (parameter) =>
        `<li>${code(parameter.name)} (${html(parameter.in)})${parameter.required ? ' <span class="req">required</span>' : ""}: ${schemaHtml(parameter.schema, 1)}${parameter.description ? ` <span class="note">${html(parameter.description)}</span>` : ""}</li>`
    )
    .join("")
  const responses = Object.entries<Json>(operation.responses ?? {})
  const successes = responses.filter(([status]) => status.startsWith("2"))
  const failures = responses.filter(([status]) => !status.startsWith("2"))
  const opened = successes.find(([status]) => status === "201")?.[0] ?? successes[0]?.[0]
  const failureRows = failures
    .map(([status, response]) => {
      const schema = Object.values<Json>(response.content ?? {})[0]?.schema
      const codes = errorCodes(schema)
      return `<li><b>${html(status)}</b> ${html(statusWords[status] ?? "")}: ${codes ? codes.map(code).join(", ") : schemaHtml(schema, 1)}</li>`
    })
    .join("")
  return `<section class="operation" id="${id}">
<h3><span class="method ${html(method)}">${html(method.toUpperCase())}</span> ${code(path)}</h3>
${operation.summary ? `<p class="summary">${html(operation.summary)}</p>` : ""}
${operation.description ? `<p>${html(operation.description)}</p>` : ""}
${securityHtml(operation, spec)}
${parameterRows ? `<h4>Parameters</h4><ul class="props">${parameterRows}</ul>` : ""}
${operation.requestBody ? `<h4>Request body</h4>${bodyHtml(operation.requestBody.content)}` : ""}
${successes
  .map(
    ([status, response]) =>
      `<details${status === opened ? " open" : ""}><summary><b>${html(status)}</b> ${html(response.description ?? statusWords[status] ?? "")}</summary>${bodyHtml(response.content)}</details>`
  )
  .join("\n")}
${failureRows ? `<h4>Errors</h4><ul class="errors">${failureRows}</ul>` : ""}
</section>`
}

/** The shape every error shares, read off the first error body of the document. */
const errorShapeHtml = (operations: ReadonlyArray<Json>) => {
  for (const operation of operations) {
    for (const [status, response] of Object.entries<Json>(operation.responses ?? {})) {
      if (status.startsWith("2")) continue
      const schema = Object.values<Json>(response.content ?? {})[0]?.schema
      const first = Array.isArray(schema?.anyOf) ? schema.anyOf[0] : schema
      if (errorCodes(first)) {
        const { error: _, ...rest } = first.properties
        return `<section id="errors"><h2>Errors</h2><p>Every non-2xx response has this body; ${code("error")} is a stable snake_case code, listed under each endpoint.</p><div class="schema">${objectHtml({ ...first, properties: { ...rest, error: { type: "string", description: "the code, e.g. invalid_request" } } }, 0)}</div></section>`
      }
    }
  }
  return ""
}

const style = `
:root{color-scheme:light dark;--fg:#1d1f23;--bg:#fff;--muted:#5d6470;--line:#d9dde3;--accent:#0b5cad;--code:#f3f5f8}
@media (prefers-color-scheme:dark){:root{--fg:#e6e8eb;--bg:#15171a;--muted:#a0a7b2;--line:#31353b;--accent:#6cb0ff;--code:#1f2226}}
*{box-sizing:border-box}body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
.layout{display:flex;min-height:100vh}nav{flex:0 0 17rem;padding:1rem;border-right:1px solid var(--line);position:sticky;top:0;height:100vh;overflow:auto;font-size:14px}
nav a{display:block;padding:.15rem 0;color:var(--fg);text-decoration:none}nav a:hover{color:var(--accent)}nav h2{font-size:13px;text-transform:uppercase;color:var(--muted);margin:1rem 0 .3rem}
main{flex:1;max-width:62rem;padding:1rem 2rem 4rem}h1{margin:.2rem 0}h2{margin-top:2.5rem;border-bottom:1px solid var(--line)}
code{font:13px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:var(--code);padding:.05rem .3rem;border-radius:3px}
.operation{border:1px solid var(--line);border-radius:6px;padding:0 1rem .8rem;margin:1.2rem 0}.operation h3{margin:.8rem 0 .3rem}
.method{display:inline-block;min-width:3.6rem;text-align:center;border-radius:3px;color:#fff;font-size:12px;padding:.1rem .4rem;background:#5d6470}
.method.get{background:#1f7a3d}.method.post{background:#0b5cad}.summary{margin:.2rem 0;font-weight:600}
.auth{color:var(--muted);margin:.3rem 0}.req{color:#b4261a;font-size:12px}.note{color:var(--muted)}
ul.props,ol.variants{margin:.2rem 0;padding-left:1.3rem}ul.props li{margin:.15rem 0}.media{margin:.3rem 0 0;color:var(--muted)}
details{margin:.4rem 0}summary{cursor:pointer}.schema{margin:.2rem 0 .2rem .2rem}ul.errors{padding-left:1.3rem}
a{color:var(--accent)}@media (max-width:50rem){.layout{display:block}nav{position:static;height:auto;border:0}}
`

/** The page for a document; everything it shows is in it. */
export const renderDocsPage = (spec: OpenApi.OpenAPISpec): string => {
  const document = spec as unknown as Json
  const tags: Array<string> = (document.tags ?? []).map((tag: Json) => tag.name)
  const operations: Array<{ path: string; method: string; operation: Json }> = []
  for (const [path, item] of Object.entries<Json>(document.paths ?? {})) {
    for (const method of ["get", "post", "put", "patch", "delete"]) {
      if (item[method]) operations.push({ path, method, operation: item[method] })
    }
  }
  const tagOf = (operation: Json): string => operation.tags?.[0] ?? "Other"
  const groups = [...new Set([...tags, ...operations.map(({ operation }) => tagOf(operation))])]
    .map((tag) => ({ tag, members: operations.filter(({ operation }) => tagOf(operation) === tag) }))
    .filter((group) => group.members.length > 0)
  const schemas = Object.entries<Json>(document.components?.schemas ?? {})
  const nav = groups
    .map(
      ({ tag, members }) =>
        `<h2>${html(tag)}</h2>${members
          .map(
            ({ path, method, operation }) =>
              `<a href="#${anchor(operation.operationId ?? `${method}-${path}`)}">${html(method.toUpperCase())} ${html(path)}</a>`
          )
          .join("")}`
    )
    .join("")
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${html(document.info.title)}</title>
${document.info.description ? `<meta name="description" content="${html(document.info.description)}">` : ""}
<style>${style}</style>
</head>
<body>
<div class="layout">
<nav aria-label="Endpoints"><a href="#top"><b>${html(document.info.title)}</b></a>${nav}<h2>More</h2><a href="#errors">Errors</a>${schemas.length ? '<a href="#schemas">Schemas</a>' : ""}<a href="/openapi.json">openapi.json</a></nav>
<main id="top">
<h1>${html(document.info.title)}</h1>
<p class="note">Version ${html(String(document.info.version))} · OpenAPI ${html(String(document.openapi))} · the machine-readable document is <a href="/openapi.json">/openapi.json</a></p>
${document.info.description ? `<p>${html(document.info.description)}</p>` : ""}
${groups
  .map(
    ({ tag, members }) =>
      `<h2 id="tag-${anchor(tag)}">${html(tag)}</h2>\n${members.map(({ path, method, operation }) => operationHtml(path, method, operation, document)).join("\n")}`
  )
  .join("\n")}
${errorShapeHtml(operations.map(({ operation }) => operation))}
${
  schemas.length
    ? `<section id="schemas"><h2>Schemas</h2>${schemas
        .map(
          ([name, schema]) =>
            `<section id="schema-${anchor(name)}"><h3>${html(name)}</h3><div class="schema">${schemaHtml(schema, 0)}</div></section>`
        )
        .join("\n")}</section>`
    : ""
}
</main>
</div>
</body>
</html>
`
}
