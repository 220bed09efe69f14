// zotero-api-client (npm), Zotero's own JavaScript client of the Web API, against a library Idiom
// serves: it reads the library (every item, page by page), writes an item, reads it back and
// changes it at its version. Prints one JSON line of what it saw; exits non-zero on any failure.
//   node zotero-api-client-check.cjs API_URL USER_ID API_KEY
const api = require('zotero-api-client').default;

async function main() {
  const [apiUrl, userID, key] = process.argv.slice(2);
  const url = new URL(apiUrl);
  const client = () => api(key, { apiScheme: url.protocol.replace(':', ''), apiAuthorityPart: url.host, apiPath: url.pathname.replace(/^\//, '') })
    .library('user', userID);
  let read = 0;
  let total = null;
  for (let start = 0; total === null || start < total; start += 100) {
    const page = await client().items().get({ limit: 100, start });
    total = page.getTotalResults();
    read += page.getData().length;
  }
  const made = await client().items().post([{ itemType: 'book', title: 'Made with zotero-api-client', tags: [{ tag: 'npm' }] }]);
  const entity = made.getEntityByIndex(0);
  const back = await client().items(entity.key).get();
  const edited = await client().items(entity.key).version(back.getVersion()).patch({ title: 'Edited with zotero-api-client' });
  const again = await client().items(entity.key).get();
  console.log(JSON.stringify({ total, read, key: entity.key, readBack: back.getData().title, edited: again.getData().title,
    versions: [back.getVersion(), again.getVersion()], patchStatus: edited.response.status }));
}

main().catch(e => { console.error(e && e.stack || e); process.exit(1); });
