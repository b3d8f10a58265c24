#!/usr/bin/env bash
# The chart's checks in `make test`: for every documented values file (deploy/helm/chat-platform/examples/), helm lint,
# helm template, and kubeconform in strict mode against each named Kubernetes version's schemas (read from disk).
# Then what must be refused: a release without a database or Redis, an Ingress host no role serves, and a manifest with
# a field Kubernetes does not know (kubeconform must find it, or it checked nothing).
#   env: HELM, KUBECONFORM, KUBE_SCHEMAS (the folder of v<version>-local-strict/), KUBERNETES_VERSIONS
set -uo pipefail
cd "$(dirname "$0")/../.."
chart=deploy/helm/chat-platform
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
passed=0
failed=0
pass() { passed=$((passed + 1)); echo "  ok    $1"; }
fail() { failed=$((failed + 1)); echo "  FAIL  $1"; [ -n "${2:-}" ] && sed 's/^/        /' <<<"$2"; }

# kubeconform over rendered files for one version (one process: the shared definitions are compiled once). The
# ServiceMonitor is the Prometheus Operator's custom resource: no Kubernetes schema describes it, so it is skipped by
# name (and only it: any other kind without a schema is an error).
conform() {
  local version=$1
  shift
  "$KUBECONFORM" -strict -summary -skip ServiceMonitor -kubernetes-version "$version" \
    -schema-location "$KUBE_SCHEMAS/{{ .NormalizedKubernetesVersion }}-local{{ .StrictSuffix }}/{{ .ResourceKind }}{{ .KindSuffix }}.json" \
    "$@" 2>&1
}

# Helm's own default Kubernetes version is old: each rendering names the version it is checked against.
for version in $KUBERNETES_VERSIONS; do
  rendered=()
  for values in "$chart"/examples/*.yaml; do
    name=$(basename "$values" .yaml)
    what="$name on Kubernetes $version"
    file="$out/$name-$version.yaml"
    if result=$("$HELM" lint --strict --kube-version "$version" "$chart" -f "$values" 2>&1); then pass "helm lint $what"; else fail "helm lint $what" "$result"; fi
    if result=$("$HELM" template "$name" "$chart" --kube-version "$version" -f "$values" 2>&1 >"$file"); then
      pass "helm template $what: $(grep -c '^kind:' "$file") objects"
      rendered+=("$file")
    else
      fail "helm template $what" "$result"
    fi
  done
  if result=$(conform "$version" "${rendered[@]}"); then
    pass "kubeconform -strict, ${#rendered[@]} files on Kubernetes $version: $(grep -o 'Valid: [0-9]*, Invalid: [0-9]*, Errors: [0-9]*, Skipped: [0-9]*' <<<"$result")"
  else
    fail "kubeconform -strict on Kubernetes $version" "$result"
  fi
done
first=${KUBERNETES_VERSIONS%% *}

# Refusals: each must fail, with its message.
refused() {
  local what=$1 expected=$2
  shift 2
  local result
  if result=$("$HELM" template refused "$chart" --kube-version "$first" "$@" 2>&1); then
    fail "$what: rendered, expected a refusal"
  elif grep -q -- "$expected" <<<"$result"; then
    pass "$what: refused ($expected)"
  else
    fail "$what: refused without the expected message" "$result"
  fi
}
refused "no database" "secrets.values.DATABASE_URL is required"
refused "no Redis" "REDIS_URL or secrets.values.REDIS_CLUSTER_NODES is required" --set secrets.values.DATABASE_URL=postgres://db/chat
refused "an Ingress host without its listener" "no enabled role runs the partner listener" \
  -f "$chart/examples/production.yaml" --set roles.apis.services=workspace

# An unknown field in a pod template must be found, or the schemas were not applied.
sed 's/^      enableServiceLinks: false$/      enableServiceLinks: false\n      notAPodField: true/' "$out/production-$first.yaml" >"$out/broken.yaml"
if ! grep -q notAPodField "$out/broken.yaml"; then
  fail "an unknown field: the production rendering has no enableServiceLinks line to put it beside"
elif result=$(conform "$first" "$out/broken.yaml"); then
  fail "an unknown field: kubeconform accepted it" "$result"
elif grep -q notAPodField <<<"$result"; then
  pass "an unknown field: kubeconform names it"
else
  fail "an unknown field: kubeconform failed for another reason" "$result"
fi

echo "chart: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
