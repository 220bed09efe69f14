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
files="${1:-version,collection,tag,search,settings,object,note,creator,relation,params,sort,general,mappings,item,loginSessions}"
work="$PWD/target/zotero-api-suite"
rm -rf "$work" && mkdir -p "$work" && cp -r "$suite_src" "$work/suite" && chmod -R u+w "$work/suite"
remote="$work/suite/tests/remote"
(cd "$remote" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
root_password="$(head -c 18 /dev/urandom | base64 | tr -d '/+=')"
export IDIOM_ZOTERO_TEST_ROOT="root:$root_password"
url=""
. perf/serve-for-bench.sh
cat > "$remote/config/local.json" <<JSON
{"apiURLPrefix":"$url/","rootUsername":"root","rootPassword":"$root_password","userID":1,"userID2":2,"libraryID":1,
 "username":"phpunit","username2":"phpunit2","password":"unused-password-1","password2":"unused-password-2",
 "displayName":"Real Name","displayName2":"Real Name 2"}
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
