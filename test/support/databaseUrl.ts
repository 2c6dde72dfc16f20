/** The same server and credentials, another database. */
export const databaseUrlFor = (url: string, database: string) => {
  const parsed = new URL(url)
  parsed.pathname = `/${database}`
  return parsed.toString()
}
