import { runTool } from "../Main/Process.js"
import { ProviderTokens } from "../Providers/ProviderTokens.js"
import { providerCommand } from "./providerCommand.js"

runTool(providerCommand(process.argv.slice(2)), ProviderTokens.Default)
