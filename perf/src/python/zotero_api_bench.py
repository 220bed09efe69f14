"""The served Zotero API's speed (issue 62), against a running Idiom with a test root.

Usage: zotero_api_bench.py URL ROOT_USER:ROOT_PASSWORD ADMIN_KEY [N]
Every operation is warmed up before any is timed. Prints:
  - N items written in 50-item batches through the Zotero API (one library, as one desktop writes it),
    beside the same records created through Idiom's own REST (POST /api/entities, 8 clients), and the ratio;
  - everything(items()) of the library: every page of 100, as pyzotero's everything() reads it;
  - a no-change incremental sync's first call (settings?since=V with If-Modified-Since-Version: 304), p50/p99.
"""
import base64
import http.client
import json
import statistics
import sys
import threading
import time
import urllib.parse

URL = urllib.parse.urlsplit(sys.argv[1])
ROOT = sys.argv[2]
ADMIN = sys.argv[3]
N = int(sys.argv[4]) if len(sys.argv) > 4 else 10_000


def connection():
    return http.client.HTTPConnection(URL.hostname, URL.port, timeout=120)


def call(conn, method, path, body=None, headers=None):
    h = {"Content-Type": "application/json", **(headers or {})}
    conn.request(method, path, body=None if body is None else json.dumps(body).encode(), headers=h)
    r = conn.getresponse()
    data = r.read()
    return r.status, dict(r.getheaders()), data


def item(i, prefix):
    return {"itemType": "journalArticle", "title": f"{prefix} replicated maintenance {i}",
            "creators": [{"creatorType": "author", "firstName": "Alan", "lastName": f"Demers{i % 97}"}],
            "date": str(1980 + i % 40), "url": f"https://example.org/{prefix}/{i}", "tags": [{"tag": "gossip"}]}


def zotero_writes(key, start, count, prefix):
    conn = connection()
    t0 = time.perf_counter()
    for b in range(start, start + count, 50):
        status, _, body = call(conn, "POST", "/users/1/items", [item(i, prefix) for i in range(b, min(b + 50, start + count))],
                               {"Zotero-API-Key": key})
        answer = json.loads(body)
        if status != 200 or answer["failed"]:
            raise SystemExit(f"Zotero API write failed: {status} {body[:300]!r}")
    return time.perf_counter() - t0


def rest_writes(count, prefix, clients=8):
    errors = []

    def worker(offset):
        conn = connection()
        for i in range(offset, count, clients):
            r = item(i, prefix)
            status, _, body = call(conn, "POST", "/api/entities", {"metadata": {"type": "article-journal", "title": r["title"],
                                   "authors": [{"family": r["creators"][0]["lastName"], "given": "Alan"}], "year": int(r["date"]),
                                   "url": r["url"], "tags": ["gossip"]}}, {"Authorization": "Bearer " + ADMIN})
            if status != 201:
                errors.append(f"{status} {body[:200]!r}")
                return

    threads = [threading.Thread(target=worker, args=(o,)) for o in range(clients)]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise SystemExit("REST write failed: " + errors[0])
    return time.perf_counter() - t0


def everything(key):
    conn = connection()
    start, total, got = 0, None, 0
    t0 = time.perf_counter()
    while total is None or start < total:
        status, headers, body = call(conn, "GET", f"/users/1/items?limit=100&start={start}", headers={"Zotero-API-Key": key})
        if status != 200:
            raise SystemExit(f"read failed: {status}")
        total = int(headers["Total-Results"])
        got += len(json.loads(body))
        start += 100
    return time.perf_counter() - t0, got


def no_change_syncs(key, count):
    conn = connection()
    _, headers, _ = call(conn, "GET", "/users/1/settings", headers={"Zotero-API-Key": key})
    version = headers["Last-Modified-Version"]
    times = []
    for _ in range(count):
        t0 = time.perf_counter()
        status, _, _ = call(conn, "GET", f"/users/1/settings?since={version}", headers={"Zotero-API-Key": key, "If-Modified-Since-Version": version})
        times.append(time.perf_counter() - t0)
        if status != 304:
            raise SystemExit(f"expected 304, got {status}")
    times.sort()
    return statistics.median(times), times[int(len(times) * 0.99)]


def main():
    conn = connection()
    auth = {"Authorization": "Basic " + base64.b64encode(ROOT.encode()).decode()}
    status, _, body = call(conn, "POST", "/test/setup?u=1&u2=2", {}, auth)
    key = json.loads(body)["user1"]["apiKey"]
    print(f"warm-up: 1,000 items each way, then {N:,} timed", flush=True)
    zotero_writes(key, 0, 1000, "warm")
    rest_writes(1000, "warm")
    everything(key)
    no_change_syncs(key, 200)
    z = zotero_writes(key, 1000, N, "zotero")
    r = rest_writes(N, "rest")
    print(f"Zotero API, 50-item batches, one client: {N:,} items in {z:.1f} s = {N / z:,.0f} items/s")
    print(f"Idiom REST, one DE a request, 8 clients:  {N:,} DEs in {r:.1f} s = {N / r:,.0f} DEs/s")
    print(f"ratio (Zotero API / REST): {(N / z) / (N / r):.2f}x")
    seconds, got = everything(key)
    print(f"everything(items()): {got:,} items in {seconds:.2f} s ({got // 100 + 1} pages of 100)")
    p50, p99 = no_change_syncs(key, 2000)
    print(f"no-change sync (settings?since=V → 304), 2,000 calls: p50 {p50 * 1000:.2f} ms, p99 {p99 * 1000:.2f} ms")


if __name__ == "__main__":
    main()
