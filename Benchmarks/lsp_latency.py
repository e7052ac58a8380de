#!/usr/bin/env python3
"""Times flowspec-lsp through the protocol: from a `didChange` (the whole text) to the
`publishDiagnostics` it causes, median of N edits; and the server's resident memory after the
first check and after all the edits. Prints `median_ms=… rss_first_kb=… rss_last_kb=…`.

    python3 Benchmarks/lsp_latency.py SERVER SPEC EDITS
"""
import json
import os
import statistics
import subprocess
import sys
import time


def frame(message):
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def read_message(stream):
    length = None
    while True:
        line = stream.readline()
        if not line:
            raise SystemExit("lsp_latency: the server closed its output")
        if line in (b"\r\n", b"\n"):
            break
        name, _, value = line.decode().partition(":")
        if name.lower() == "content-length":
            length = int(value.strip())
    return json.loads(stream.read(length))


def wait_for_diagnostics(stream):
    while True:
        message = read_message(stream)
        if message.get("method") == "textDocument/publishDiagnostics":
            return message


def rss_kb(pid):
    with open("/proc/%d/status" % pid) as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def main():
    server, spec, edits = sys.argv[1], sys.argv[2], int(sys.argv[3])
    with open(spec) as f:
        text = f.read()
    process = subprocess.Popen([server], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    uri = "file://" + os.path.abspath(spec)
    process.stdin.write(frame({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}}))
    process.stdin.write(frame({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
        "textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}}}))
    process.stdin.flush()
    read_message(process.stdout)  # initialize's result
    wait_for_diagnostics(process.stdout)
    rss_first = rss_kb(process.pid)
    times = []
    for version in range(2, edits + 2):
        # Alternate two texts (a comment changes), so each edit is a real change.
        changed = text + ("# edit %d\n" % (version % 2))
        started = time.perf_counter()
        process.stdin.write(frame({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": changed}]}}))
        process.stdin.flush()
        wait_for_diagnostics(process.stdout)
        times.append(time.perf_counter() - started)
    rss_last = rss_kb(process.pid)
    process.stdin.write(frame({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}))
    process.stdin.write(frame({"jsonrpc": "2.0", "method": "exit"}))
    process.stdin.close()
    process.wait(timeout=60)
    print("median_ms=%.3f rss_first_kb=%d rss_last_kb=%d" % (statistics.median(times) * 1000, rss_first, rss_last))


if __name__ == "__main__":
    main()
