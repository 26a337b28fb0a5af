#!/usr/bin/env bash
# run-notebooks.sh: execute notebooks headless under the gophernotes kernel.
#
#   scripts/run-notebooks.sh [--inplace] [NOTEBOOK.ipynb ...]
#
# With no notebook arguments it runs every notebooks/*.ipynb, in name order.
# Executed copies go to notebooks/executed/ (gitignored); with --inplace the
# notebooks themselves are overwritten with their outputs instead.
# Runs scripts/setup-notebooks.sh first (set SKIP_NOTEBOOK_SETUP=1 to skip).
# Exits non-zero if any notebook fails, naming each one that did. Runs one
# at a time per user: a second run waits for the first.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
JUPYTER=/usr/bin/jupyter
KERNEL_NAME=gophernotes
TIMEOUT=${NOTEBOOK_CELL_TIMEOUT:-900}
OUT_DIR=$ROOT/notebooks/executed

say() { printf '[run-notebooks] %s\n' "$*"; }
die() { printf '[run-notebooks] ERROR: %s\n' "$*" >&2; exit 2; }
usage() { sed -n '2,11s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; }

# failure_digest LOG: the Go tool's complaints and the failing cell with its
# error, without nbconvert's Python traceback.
failure_digest() {
	/usr/bin/python3 - "$1" <<'PY' || tail -n 40 "$1"
import sys
lines = open(sys.argv[1], errors="replace").read().splitlines()
go = [l for l in lines if l.startswith(("go: ", "\t")) and "go: added " not in l and "go: downloading" not in l]
for l in go[:30]:
    print(l)
marker = "An error occurred while executing the following cell:"
starts = [i for i, l in enumerate(lines) if marker in l and not l.startswith(" ")]
if starts:
    out = [l for l in lines[starts[0]:] if l.strip()]
    # stop where nbconvert's second (indented) copy of the traceback begins
    for i, l in enumerate(out[1:], 1):
        if l.startswith(" "):
            out = out[:i]
            break
    print("\n".join(out[:40]))
elif not go:
    print("\n".join(lines[-40:]))
PY
}

inplace=0
notebooks=()
while [ $# -gt 0 ]; do
	case "$1" in
	--inplace) inplace=1 ;;
	-h | --help) usage; exit 0 ;;
	--) shift; notebooks+=("$@"); break ;;
	-*) usage >&2; die "unknown option: $1" ;;
	*) notebooks+=("$1") ;;
	esac
	shift
done

if [ ${#notebooks[@]} -eq 0 ]; then
	shopt -s nullglob
	notebooks=("$ROOT"/notebooks/*.ipynb)
	shopt -u nullglob
	if [ ${#notebooks[@]} -eq 0 ]; then
		say "no notebooks in $ROOT/notebooks: nothing to run"
		exit 0
	fi
fi
for nb in "${notebooks[@]}"; do
	[ -f "$nb" ] || die "no such notebook: $nb"
	case "$nb" in *.ipynb) ;; *) die "not a notebook (.ipynb): $nb" ;; esac
done

# One run at a time per user: the kernel spec, the kernel binary and gomacro's
# plugin sources ($GOPATH/src/gomacro.imports) are per user, and two kernels
# building the same import's plugin at once break each other's build.
LOCK=${XDG_CACHE_HOME:-$HOME/.cache}/hetgain/run-notebooks.lock
mkdir -p "$(dirname "$LOCK")"
exec 9>"$LOCK"
if ! flock -n 9; then
	say "another run-notebooks.sh holds $LOCK; waiting for it to finish"
	flock 9
fi

if [ "${SKIP_NOTEBOOK_SETUP:-0}" != 1 ]; then
	bash "$ROOT/scripts/setup-notebooks.sh" || die "notebook setup failed"
fi

mkdir -p "$OUT_DIR"
passed=()
failed=()
for nb in "${notebooks[@]}"; do
	name=$(basename "$nb")
	log=$OUT_DIR/${name%.ipynb}.log
	if [ $inplace = 1 ]; then
		dest=(--inplace)
		result=$nb
	else
		dest=(--output-dir "$OUT_DIR")
		result=$OUT_DIR/$name
		rm -f "$result"
	fi
	say "executing $nb ..."
	t0=$(date +%s)
	rc=0
	"$JUPYTER" nbconvert --to notebook --execute \
		--ExecutePreprocessor.timeout="$TIMEOUT" \
		--ExecutePreprocessor.kernel_name="$KERNEL_NAME" \
		"${dest[@]}" "$nb" </dev/null >"$log" 2>&1 || rc=$?
	secs=$(($(date +%s) - t0))
	if [ $rc -eq 0 ]; then
		# nbconvert stops at a cell whose reply is an error; also catch error
		# outputs that did not stop it.
		if ! /usr/bin/python3 - "$result" >>"$log" 2>&1 <<'PY'; then
import json, sys
nb = json.load(open(sys.argv[1]))
bad = 0
for i, cell in enumerate(nb.get("cells", [])):
    for out in cell.get("outputs", []):
        if out.get("output_type") == "error":
            bad += 1
            print("cell %d (id %s): %s: %s" % (i, cell.get("id"), out.get("ename"), out.get("evalue")))
sys.exit(1 if bad else 0)
PY
			rc=1
		fi
	fi
	if [ $rc -eq 0 ]; then
		say "ok   $nb (${secs} s) -> $result"
		passed+=("$nb")
	else
		say "FAIL $nb (${secs} s, exit $rc); full log: $log"
		failure_digest "$log" | sed 's/^/    /' >&2
		failed+=("$nb")
	fi
done

say "summary: ${#passed[@]} notebook(s) passed, ${#failed[@]} failed"
for nb in "${failed[@]}"; do
	say "failed: $nb"
done
echo "notebooks: ${#passed[@]} passed, ${#failed[@]} failed"
[ ${#failed[@]} -eq 0 ]
