import { writeFileSync } from "node:fs"
import { errorCatalogue } from "../src/Errors/Catalogue.js"
import { errorsPage } from "./errorsPage.js"

writeFileSync(new URL("../docs/errors.md", import.meta.url), errorsPage(errorCatalogue()))
