#!/usr/bin/env bash
# Zotero's own API test suite (../shared/zotero-api-tests, the dataserver's tests/remote, AGPL: run
# from a copy under target/, never part of the project) against an Idiom started with a test root.
# Prints each file's cases, passes and failures, and the total; failures go to target/zotero-api-suite/FILE.json.
#   perf/zotero-api-suite.sh                 # the files issue 62 names
#   perf/zotero-api-suite.sh item,settings   # some of them
set -euo pipefail
cd "$(dirname "$0")/.."
suite_src="${ZOTERO_API_TESTS:-../shared/zotero-api-tests}"
[ -d "$suite_src/tests/remote" ] || { echo "no Zotero API suite at $suite_src (set ZOTERO_API_TESTS)" >&2; exit 2; }
files="${1:-version,collection,tag,search,settings,object,note,creator,relation,params,sort,general,mappings,item,loginSessions,keys}"
work="$PWD/target/zotero-api-suite"
rm -rf "$work" && mkdir -p "$work" && cp -r "$suite_src" "$work/suite" && chmod -R u+w "$work/suite"
remote="$work/suite/tests/remote"
(cd "$remote" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
root_password="$(head -c 18 /dev/urandom | base64 | tr -d '/+=')"
export IDIOM_ZOTERO_TEST_ROOT="root:$root_password"
url=""
. perf/serve-for-bench.sh
# the suite's two users are served accounts, as a curator makes them (send-only: the engine never reads what the
# suite writes); their names and the passwords said once sign in (POST /keys)
user() {
  curl -fsS -X PUT -H "Authorization: Bearer $IDIOM_KEY" -H 'Content-Type: application/json' \
    -d '{"kind":"zotero-api","direction":"send-only"}' "$url/api/tools/$1" | python3 -c "
import json,sys,urllib.request
a=json.load(sys.stdin)
r=urllib.request.Request('$url/keys/current',headers={'Zotero-API-Key':a['apiKey']})
k=json.load(urllib.request.urlopen(r))
print(a['userID'],a['password'],k['displayName'])"
}
read -r id1 pw1 name1 < <(user phpunit)
read -r id2 pw2 name2 < <(user phpunit2)
cat > "$remote/config/local.json" <<JSON
{"apiURLPrefix":"$url/","rootUsername":"root","rootPassword":"$root_password","userID":$id1,"userID2":$id2,"libraryID":$id1,
 "username":"phpunit","username2":"phpunit2","password":"$pw1","password2":"$pw2",
 "displayName":"$name1","displayName2":"$name2","emailPrimary":"phpunit@example.invalid","emailSecondary":"phpunit.2@example.invalid"}
JSON
total=0; passed=0
IFS=',' read -ra names <<< "$files"
for f in "${names[@]}"; do
  (cd "$remote" && timeout 600 npx mocha "tests/3/$f.test.js" --timeout 30000 --reporter json --reporter-option "output=$work/$f.json" \
    > "$work/$f.out" 2>&1) || true
  read -r n p < <(python3 -c "import json;s=json.load(open('$work/$f.json'))['stats'];print(s['tests'],s['passes'])" 2>/dev/null || echo "0 0")
  printf '%-12s %4d cases %4d pass %4d fail\n' "$f" "$n" "$p" "$((n - p))"
  total=$((total + n)); passed=$((passed + p))
done
python3 -c "print('total %d cases, %d pass (%.1f%%)' % ($total, $passed, 100.0 * $passed / max(1, $total)))"
