import { policyOfSupply, type SupplyCancellationPolicy, samePolicy } from "../Domain/CancellationPolicy.js"
import { consumerInformation, consumerTermsVersion } from "../Domain/ConsumerInformation.js"
import type { SupplyFile } from "../Domain/Supply.js"

type FileProvider = SupplyFile["providers"][number]
type FileService = FileProvider["services"][number]

/**
 * The consumer information every service's terms carry (2005:59 2 kap. 2 §), built from its
 * provider's identity, and the version the terms are stored under: the file's, with the
 * information's fingerprint.
 */
export const consumerTermsOf = (file: SupplyFile, publicBaseUrl: string) => {
  const identityOf = (p: FileProvider) => ({
    name: p.name,
    organisationNumber: p.organisation_number,
    email: p.contact.email,
    phone: p.contact.phone,
    address: p.contact.address
  })
  const informationOf = new Map(file.providers.map((p) => [p.id, consumerInformation(identityOf(p), publicBaseUrl)]))
  const versionOf = (p: FileProvider, s: FileService) => consumerTermsVersion(s.terms.version, identityOf(p))
  return { informationOf, versionOf }
}

/** The policy columns of a service, from its own policy or its provider's. */
export const policyColumns = (policy: SupplyCancellationPolicy | undefined) => {
  const { freeCancellationHours, lateFeeSek, changeHours } = policyOfSupply(policy)
  return { free_cancellation_hours: freeCancellationHours, late_fee_sek: lateFeeSek, change_hours: changeHours }
}

/** Services whose policy the file changes while their terms version stays: each a problem naming the path. */
export const policyChangeProblems = (
  file: SupplyFile,
  versionOf: (provider: FileProvider, service: FileService) => string,
  stored: ReadonlyArray<{
    readonly providerId: string
    readonly serviceId: string
    readonly termsVersion: string
    readonly freeCancellationHours: number
    readonly lateFeeSek: number
    readonly changeHours: number
  }>
) => {
  const byKey = new Map(stored.map((row) => [`${row.providerId}/${row.serviceId}`, row]))
  return file.providers.flatMap((provider, p) =>
    provider.services.flatMap((service, s) => {
      const row = byKey.get(`${provider.id}/${service.service_id}`)
      if (row === undefined || row.termsVersion !== versionOf(provider, service)) return []
      return samePolicy(row, policyOfSupply(service.cancellation_policy ?? provider.cancellation_policy))
        ? []
        : [
            `providers.${p}.services.${s}.terms.version: the cancellation policy changed, so the terms version must change too (${service.terms.version} is already imported with another policy)`
          ]
    })
  )
}
