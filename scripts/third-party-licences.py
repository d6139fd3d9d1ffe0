#!/usr/bin/env python3
"""Gathers the licences of every crate built into a package's binary.

Usage: third-party-licences.py PACKAGE OUT_DIR

The crates are those `cargo metadata` resolves as normal (not dev, not
build) dependencies of PACKAGE on x86_64 Linux, proc-macros left out (they
run in the compiler, none of their code ships). Each crate's licence files
(LICENSE*, LICENCE*, COPYING*, NOTICE*) are copied to OUT_DIR/<name>-<version>/,
and OUT_DIR/README.md lists every crate with its licence expression.
"""

import json
import os
import re
import shutil
import subprocess
import sys

LICENCE_FILE = re.compile(r"^(LICEN[CS]E|COPYING|NOTICE|COPYRIGHT)", re.IGNORECASE)


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    package, out = sys.argv[1], sys.argv[2]
    meta = json.loads(
        subprocess.check_output(
            ["cargo", "metadata", "--format-version", "1", "--locked",
             "--filter-platform", "x86_64-unknown-linux-gnu"]
        )
    )
    packages = {p["id"]: p for p in meta["packages"]}
    nodes = {n["id"]: n for n in meta["resolve"]["nodes"]}
    root = next(p["id"] for p in meta["packages"] if p["name"] == package and p["source"] is None)
    seen, todo = set(), [root]
    while todo:
        node = nodes[todo.pop()]
        for dep in node["deps"]:
            normal = any(k["kind"] is None for k in dep["dep_kinds"])
            if normal and dep["pkg"] not in seen:
                seen.add(dep["pkg"])
                todo.append(dep["pkg"])
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    rows, missing = [], []
    for pid in sorted(seen, key=lambda i: (packages[i]["name"], packages[i]["version"])):
        p = packages[pid]
        if p["source"] is None:
            continue  # tabula's own crates: the project's licence
        if any("proc-macro" in t["kind"] for t in p["targets"]):
            continue
        name = f'{p["name"]}-{p["version"]}'
        here = os.path.dirname(p["manifest_path"])
        files = sorted(f for f in os.listdir(here) if LICENCE_FILE.match(f) and os.path.isfile(os.path.join(here, f)))
        if p.get("license_file"):
            files.append(os.path.relpath(os.path.join(here, p["license_file"]), here))
        os.makedirs(os.path.join(out, name))
        for f in dict.fromkeys(files):
            shutil.copy(os.path.join(here, f), os.path.join(out, name, os.path.basename(f)))
        if not files:
            missing.append(name)
        rows.append(f'| {p["name"]} | {p["version"]} | {p.get("license") or "see its folder"} |')
    with open(os.path.join(out, "README.md"), "w") as readme:
        readme.write(f"# The crates built into {package}\n\n")
        readme.write("Each folder holds the licence files its crate ships; the table gives\n")
        readme.write("each crate's licence expression as it declares it.\n\n")
        readme.write("| crate | version | licence |\n|---|---|---|\n")
        readme.write("\n".join(rows) + "\n")
        if missing:
            readme.write("\nThese crates ship no licence file, only the expression above:\n")
            readme.write("".join(f"- {m}\n" for m in missing))
    print(f"{len(rows)} crates' licences in {out} ({len(missing)} with only an expression)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
