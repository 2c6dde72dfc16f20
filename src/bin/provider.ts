import { runTool } from "../Main/Process.js"
import { ProviderOffer } from "../Providers/Offer.js"
import { ProviderTokens } from "../Providers/ProviderTokens.js"
import { offerCommand } from "./offerCommand.js"
import { providerCommand } from "./providerCommand.js"

const [command, ...args] = process.argv.slice(2)

if (command === "changes") runTool(offerCommand(args), ProviderOffer.Default)
else runTool(providerCommand(process.argv.slice(2)), ProviderTokens.Default)
