#!/usr/bin/env bash
# test.sh: the one test command of the project.
#   1. go vet ./...
#   2. staticcheck ./...        (pinned version, built by go run)
#   3. go test ./...            (-count=1, with the go on PATH)
#   4. scripts/run-notebooks.sh (installs the notebook kernel if needed, then
#      executes every notebooks/*.ipynb headless)
# Every stage runs even if an earlier one failed; the exit status is non-zero
# if any failed, and the last lines name the failed stages.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
# go and jupyter keep caches and settings under HOME.
if [ -z "${HOME:-}" ]; then
	HOME=$(getent passwd "$(id -u)" | cut -d: -f6)
	export HOME
fi

section() { printf '\n==================== %s ====================\n' "$*"; }
t_start=$(date +%s)
passed=()
failed=()
stage() {
	local name=$1
	shift
	section "$name"
	local t0 rc=0
	t0=$(date +%s)
	"$@" || rc=$?
	if [ $rc -eq 0 ]; then
		passed+=("$name")
		printf -- '--- %s: ok (%s s)\n' "$name" "$(($(date +%s) - t0))"
	else
		failed+=("$name")
		printf -- '--- %s: FAILED (exit %s, %s s)\n' "$name" "$rc" "$(($(date +%s) - t0))"
	fi
}

stage "go vet ./... ($(go env GOVERSION))" go vet ./...
stage "staticcheck ./..." go run honnef.co/go/tools/cmd/staticcheck@v0.8.2 ./...
stage "go test ./..." go test -count=1 -timeout 30m ./...
stage "notebooks" bash "$ROOT/scripts/run-notebooks.sh"

section "summary ($(($(date +%s) - t_start)) s)"
for s in "${passed[@]}"; do echo "ok      $s"; done
for s in "${failed[@]}"; do echo "FAILED  $s"; done
echo "stages: ${#passed[@]} passed, ${#failed[@]} failed"
[ ${#failed[@]} -eq 0 ]
