"""pyzotero against a Zotero library Idiom serves: every call issue 62 names, then the federation.

Usage: pyzotero_check.py ACCOUNT.json LIBRARY.bib DAV_FOLDER
ACCOUNT.json is Idiom's answer to PUT /api/tools/NAME {"kind": "zotero-api"} (apiUrl, userID, apiKey).
Prints each step with its figures; exits non-zero at the first step that does not hold.
"""
import json
import pathlib
import sys
import time

from pyzotero import zotero


def step(name, ok, detail=""):
    print(f"{'ok  ' if ok else 'FAIL'} {name}{': ' + detail if detail else ''}", flush=True)
    if not ok:
        sys.exit(1)


def wait(what, check, seconds=60):
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        if check():
            return True
        time.sleep(0.3)
    return False


def main():
    account = json.loads(pathlib.Path(sys.argv[1]).read_text())
    bib = pathlib.Path(sys.argv[2])
    dav = pathlib.Path(sys.argv[3])
    zot = zotero.Zotero(account["userID"], "user", account["apiKey"])
    zot.endpoint = account["apiUrl"]

    step("everything(items()) of an empty library", zot.everything(zot.items()) == [])
    start = int(zot.last_modified_version())

    template = zot.item_template("journalArticle")
    made = []
    for batch in (50, 50, 20):
        items = []
        for i in range(batch):
            t = dict(template)
            t["title"] = f"Gossip protocols, part {len(made) + i + 1}"
            t["creators"] = [{"creatorType": "author", "firstName": "Alan", "lastName": "Demers"}]
            t["date"] = "1987"
            t["url"] = f"https://example.org/gossip/{len(made) + i + 1}"
            items.append(t)
        answer = zot.create_items(items)
        step(f"create_items of {batch}", len(answer["successful"]) == batch and not answer["failed"],
             f"{len(answer['successful'])} successful, {len(answer['failed'])} failed")
        made.extend(answer["successful"].values())
    everything = zot.everything(zot.items())
    step("everything(items()) pages through all 120", len(everything) == 120, f"{len(everything)} items")

    first = zot.item(made[0]["key"])
    first["data"]["title"] = "Epidemic algorithms for replicated database maintenance"
    step("update_item", zot.update_item(first["data"]) is True)
    step("the update is read back", zot.item(made[0]["key"])["data"]["title"] == first["data"]["title"])

    gone = zot.item(made[1]["key"])
    step("delete_item", zot.delete_item(gone) is True)

    answer = zot.create_collections([{"name": "Replication"}])
    step("create_collections", len(answer["successful"]) == 1, json.dumps(answer["failed"]))
    collection = list(answer["successful"].values())[0]["key"]
    step("addto_collection", zot.addto_collection(collection, zot.item(made[2]["key"])) is True)
    step("the collection holds it", [i["key"] for i in zot.collection_items(collection)] == [made[2]["key"]])

    step("add_tags", zot.add_tags(zot.item(made[3]["key"]), "gossip", "epidemics") is True)
    tags = {t["tag"] for t in zot.item(made[3]["key"])["data"]["tags"]}
    step("the tags are read back", {"gossip", "epidemics"} <= tags, str(sorted(tags)))

    since = zot.items(since=start, limit=100)
    step("items(since=V) pages of 100", len(since) == 100, f"{len(since)} items; Total-Results {zot.request.headers.get('Total-Results')}")
    deleted = zot.deleted(since=start)
    step("deleted(since=V) names the deleted item", made[1]["key"] in deleted["items"], json.dumps(deleted["items"]))

    # federation: the engine carries pyzotero's item to the mirrored .bib and the browsers' XBEL
    title = "Epidemic algorithms for replicated database maintenance"
    xbel = dav / "bookmarks.xbel"
    step("pyzotero's edit reaches the mirrored .bib", wait("bib", lambda: title in bib.read_text(encoding="utf-8")))
    print(f"     (the .bib holds {bib.read_text(encoding='utf-8').count('@article')} entries)")
    before = int(zot.last_modified_version())
    text = bib.read_text(encoding="utf-8")
    bib.write_text(text.replace(title, "Epidemic algorithms, revised in the file"), encoding="utf-8")
    step("an edit made in the .bib is in pyzotero's next items(since=V)",
         wait("since", lambda: any(i["data"]["title"] == "Epidemic algorithms, revised in the file" for i in zot.items(since=before))))
    changed = zot.items(since=before)
    step("…on pyzotero's own item", [i["key"] for i in changed] == [made[0]["key"]], json.dumps([i["key"] for i in changed]))
    step("…and in the browsers' XBEL", wait("xbel", lambda: xbel.exists() and "revised in the file" in xbel.read_text(encoding="utf-8")),
         str(xbel))


if __name__ == "__main__":
    main()
