#!/usr/bin/env python3
"""Unpacks the Kubernetes JSON schemas that the kubernetes-validate wheel (PyPI) carries, for the named versions only.

kubeconform reads them from disk (-schema-location), so the chart is checked without its usual download from GitHub.
Each schema of the wheel names itself with an "$id" under https://kubernetes.io/api/ and points into the shared
definitions as "/api/_definitions.json#/$defs/...", which its own resolver serves. Here the "$id" is dropped and the
reference becomes "_definitions.json#/$defs/...", the file beside the schema, which a file-based resolver finds.
usage: kube-schemas.py WHEEL DEST VERSION...   (a VERSION such as 1.31.0)
"""
import json
import os
import sys
import zipfile

wheel, dest, versions = sys.argv[1], sys.argv[2], sys.argv[3:]
prefixes = [f"kubernetes_validate/kubernetes-json-schema/v{v}-local-strict/" for v in versions]
with zipfile.ZipFile(wheel) as archive:
    members = [m for m in archive.namelist() if any(m.startswith(p) for p in prefixes) and m.endswith(".json")]
    for prefix in prefixes:
        if not any(m.startswith(prefix) for m in members):
            sys.exit(f"{wheel} has no schemas under {prefix}")
    for member in members:
        schema = json.loads(archive.read(member))
        schema.pop("$id", None)
        text = json.dumps(schema).replace('"/api/_definitions.json#', '"_definitions.json#')
        target = os.path.join(dest, member)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "w", encoding="utf-8") as out:
            out.write(text)
print(f"{len(members)} schemas of Kubernetes {', '.join(versions)} in {dest}")
