import { runTool } from "../Main/Process.js"
import { Partners } from "../Partners/Partners.js"
import { partnerCommand } from "./partnerCommand.js"

runTool(partnerCommand(process.argv.slice(2)), Partners.Default)
