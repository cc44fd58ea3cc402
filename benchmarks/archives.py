"""What `sodos ratings` rates of real server archives, and why the rest is not rated.

Not a timing: an account. For each archive folder given, two independent readings:

* the **oracle** (sgfmill's parser alone, a regular expression for files it cannot
  parse): the records, and the *eligible* ones — PB and PW non-empty and different, an
  RE naming a winner (``B+…``, ``W+…``) or a draw (``0``, ``Draw``, ``Jigo``), a
  non-empty DT;
* **sodos**, as a user runs it: ``sodos ratings FOLDER --format json --skip-bad
  --no-cache --system SYSTEM`` (a whole process), and, without ``--skip-bad``, its exit
  status.

Then per folder: files, records, eligible, games sodos rates, the eligible records it
rates (every file's account joined to the oracle by path, minus the games the system
itself does not rate, from its warnings) and the rest grouped by status and reason key.

    python benchmarks/archives.py /work/archives/fox-pro /work/archives/kgs-u-go ...
    python benchmarks/archives.py --system ogs --sodos "python -m sodos_plugin.cli" DIR
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import re
import shlex
import subprocess
import sys

from sgfmill import sgf_grammar

WIN = re.compile(rb"^\s*[BW]\s*\+", re.I)
DRAW = re.compile(rb"^\s*(0|draw|jigo|0\.0)\s*$", re.I)


def _first(props: dict, ident: str) -> bytes:
    values = props.get(ident) or [b""]
    value = re.sub(rb"\\\r?\n", b"", values[0])
    return re.sub(rb"\\(.)", rb"\1", value).strip()


def _eligible(pb: bytes, pw: bytes, re_: bytes, dt: bytes) -> bool:
    return bool(pb and pw and pb != pw and dt and (WIN.match(re_) or DRAW.match(re_)))


def _raw(data: bytes, ident: bytes) -> bytes:
    match = re.search(rb"(?<![A-Z])" + ident + rb"\[((?:[^\]\\]|\\.)*)\]", data)
    return match.group(1).strip() if match else b""


def oracle(folder: str) -> dict[str, list[bool]]:
    """path → eligible per record (a file sgfmill cannot parse: one record by regex)."""
    found: dict[str, list[bool]] = {}
    for root, dirs, files in os.walk(folder):
        dirs.sort()
        for name in sorted(files):
            if not name.lower().endswith(".sgf"):
                continue
            path = os.path.join(root, name)
            with open(path, "rb") as handle:
                data = handle.read()
            body = data.lstrip(b"\xef\xbb\xbf \t\r\n")
            trees = []
            if body.startswith(b"("):
                try:
                    trees = sgf_grammar.parse_sgf_collection(data)
                except ValueError:
                    trees = []
            if trees:
                props = [tree.sequence[0] for tree in trees]
                found[path] = [
                    _eligible(*(_first(p, i) for i in ("PB", "PW", "RE", "DT"))) for p in props
                ]
            elif body.strip(b"\0 \t\r\n"):  # broken, not empty: one record, by regex
                found[path] = [_eligible(*(_raw(data, i) for i in (b"PB", b"PW", b"RE", b"DT")))]
            else:
                found[path] = []
    return found


def _key(report: dict) -> str:
    reason = report.get("kind") or report["reason"]
    reason = re.sub(r"'[^']*'", "'…'", reason)
    reason = re.sub(r"\b(DT|RE|KM|HA|GN|CA)\[[^\]]*\]", r"\1[…]", reason)
    reason = re.sub(r"^game \d+: ", "game N: ", reason)
    return re.sub(r"same game as .*", "same game as …", reason)


def account(folder: str, sodos: list[str], system: str) -> dict:
    records = oracle(folder)
    run = [*sodos, "ratings", folder, "--format", "json", "--no-cache", "--system", system]
    done = subprocess.run([*run, "--skip-bad"], capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(
            f"{' '.join(run)} --skip-bad: exit {done.returncode}\n{done.stderr[-2000:]}"
        )
    strict = subprocess.run(run, capture_output=True, text=True).returncode
    result = json.loads(done.stdout)
    eligible = sum(sum(flags) for flags in records.values())
    groups: collections.Counter = collections.Counter()
    lost: collections.Counter = collections.Counter()  # eligible records per group
    for report in result["files"]:
        if report["status"] == "ingested":
            continue
        base, _, game = report["path"].partition("#")
        flags = records.get(base, [])
        lost_here = flags[int(game) - 1] if game and len(flags) >= int(game) else sum(flags)
        key = (report["status"], _key(report))
        groups[key] += 1
        lost[key] += lost_here
    for warning in result["warnings"]:  # games the system does not rate
        many = re.search(r"(\d+) game\(s\) not on 19x19 not rated", warning)
        one = re.search(rf"^{system}: .*: not rated: (.*)$", warning)
        if many:
            key = (f"not rated by {system}", "board not 19x19")
            groups[key] += int(many.group(1))
            lost[key] += int(many.group(1))
        elif one:
            key = (f"not rated by {system}", one.group(1))
            groups[key] += 1
            lost[key] += 1
    rated = sum(p["games"] for p in result["players"]) // 2
    return {
        "folder": folder,
        "files": sum(len(f) for _, _, f in os.walk(folder)),
        "records": sum(len(flags) for flags in records.values()),
        "eligible": eligible,
        "rated": rated,
        "eligible_rated": eligible - sum(lost.values()),
        "exit_without_skip_bad": strict,
        "not_rated": [[s, k, n, lost[s, k]] for (s, k), n in groups.most_common()],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("folders", nargs="+")
    parser.add_argument("--system", default="egf")
    parser.add_argument("--sodos", default="sodos", help="the command to run (default: sodos)")
    parser.add_argument("--json", help="also write the accounts to this file")
    args = parser.parse_args(argv)
    accounts = [account(f, shlex.split(args.sodos), args.system) for f in args.folders]
    print("| source | files | records | eligible | rated | eligible rated | exit |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for a in accounts:
        share = 100 * a["eligible_rated"] / a["eligible"] if a["eligible"] else 0.0
        print(
            f"| {os.path.basename(a['folder'].rstrip('/'))} | {a['files']} | {a['records']} | "
            f"{a['eligible']} | {a['rated']} | {a['eligible_rated']} ({share:.2f} %) | "
            f"{a['exit_without_skip_bad']} |"
        )
    for a in accounts:
        print(f"\n{a['folder']}: not rated (status, reason: count, eligible among them)")
        for status, key, count, lost in a["not_rated"]:
            print(f"  {status}: {key}: {count} ({lost})")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(accounts, out, indent=1, ensure_ascii=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
