#!/usr/bin/env bash
# setup-notebooks.sh: install everything needed to execute notebooks/*.ipynb
# under the gophernotes Go kernel. Idempotent: a second run only checks.
#
# What it does (see shared/notes/notebook-kernel.md for the reasons):
#   1. Debian packages for headless Jupyter (skipped when already installed);
#   2. the Go 1.21.13 toolchain, through the Go module proxy. The kernel and
#      the plugins it builds for each import block must use the same one, and
#      gomacro cannot convert generic functions: built with Go >= 1.22 the
#      kernel panics at start. (With 1.21.13 it runs, but `sync` and any
#      package whose types lead to sync or sync/atomic still cannot be
#      imported in a notebook: Go 1.21's sync.OnceValue is generic.)
#   3. `go mod download`, `go mod graph` and a download of every module
#      version of the build list (the kernel's `go mod tidy` needs sources of
#      test dependencies), filling the module cache;
#   4. a local, offline module proxy (a directory of symlinks into the module
#      cache) that offers the source of exactly the versions selected by THIS
#      go.mod, and nothing else. The kernel runs `go get` for every import
#      block; pointing it at that proxy makes each import resolve, offline, to
#      the same versions as the library, or fail at once (instead of "plugin
#      was built with a different version of package" later). GOPROXY=off does
#      not work for third-party imports: `go get` then fails with "module
#      lookup disabled by GOPROXY=off";
#   5. gophernotes, built from THIS module's graph (it pins gophernotes
#      v0.7.5 and golang.org/x/tools v0.16.1 via internal/kerneltools);
#   6. the kernel spec "gophernotes" in the user's Jupyter data dir.
# Binary and proxy live in $HETGAIN_NOTEBOOK_HOME (default
# ${XDG_DATA_HOME:-~/.local/share}/hetgain); both are rebuilt only when
# missing or when go.mod, go.sum, the toolchain or this script changed.
#
# Needs: Debian 12 with Go >= 1.21 on PATH; root or sudo for the apt step.
set -euo pipefail

KERNEL_GO=go1.21.13
KERNEL_NAME=gophernotes
KERNEL_DISPLAY_NAME="Go (hetgain)"
APT_PACKAGES=(jupyter-nbconvert python3-nbclient jupyter-client)
JUPYTER=/usr/bin/jupyter

say() { printf '[setup-notebooks] %s\n' "$*"; }
die() { printf '[setup-notebooks] ERROR: %s\n' "$*" >&2; exit 1; }
trap 'rc=$?; printf "[setup-notebooks] ERROR: command failed (exit %s) at line %s: %s\n" "$rc" "$LINENO" "$BASH_COMMAND" >&2' ERR

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
[ -f "$ROOT/go.mod" ] || die "no go.mod in $ROOT"
if [ -z "${HOME:-}" ]; then
	HOME=$(getent passwd "$(id -u)" | cut -d: -f6)
	[ -n "$HOME" ] || die "HOME is not set and not found in the passwd database"
	export HOME
fi

# ---------------------------------------------------------------- 1. Debian
need_pkgs=()
for p in "${APT_PACKAGES[@]}"; do
	if [ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)" != "install ok installed" ]; then
		need_pkgs+=("$p")
	fi
done
# cgo (gcc, libc headers) is needed to build the kernel and its plugins.
command -v gcc >/dev/null 2>&1 || need_pkgs+=(gcc libc6-dev)
if [ ! -x "$JUPYTER" ] && [ ${#need_pkgs[@]} -eq 0 ]; then
	need_pkgs+=(jupyter-core)
fi
if [ ${#need_pkgs[@]} -gt 0 ]; then
	command -v apt-get >/dev/null 2>&1 || die "apt-get not found: install ${need_pkgs[*]} by hand (Debian 12 expected)"
	if [ "$(id -u)" -eq 0 ]; then
		SUDO=()
	elif command -v sudo >/dev/null 2>&1; then
		SUDO=(sudo)
	else
		die "need root or sudo to install Debian packages: ${need_pkgs[*]}"
	fi
	say "installing Debian packages: ${need_pkgs[*]}"
	"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q \
		|| die "apt-get update failed"
	"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${need_pkgs[@]}" \
		|| die "apt-get install ${need_pkgs[*]} failed"
else
	say "Debian packages present: ${APT_PACKAGES[*]}"
fi
[ -x "$JUPYTER" ] || die "$JUPYTER missing after installing ${APT_PACKAGES[*]}"

# ------------------------------------------------------------ 2. toolchain
command -v go >/dev/null 2>&1 || die "go not found on PATH (Go >= 1.21 is required)"
host_go=$(GOTOOLCHAIN=local go env GOVERSION) || die "'go env GOVERSION' failed"
case "$host_go" in
go1.[0-9].* | go1.[0-9] | go1.1[0-9].* | go1.1[0-9] | go1.20*)
	die "$host_go is too old: Go >= 1.21 is required (it fetches $KERNEL_GO itself)" ;;
esac
# `go env GOROOT` under GOTOOLCHAIN=$KERNEL_GO downloads that toolchain into
# the module cache (golang.org/toolchain@v0.0.1-$KERNEL_GO.<os>-<arch>) on
# first use and prints its root. Run it outside the repo so that no go.mod or
# GOFLAGS of ours gets in the way.
kernel_goroot=$(cd / && GOTOOLCHAIN=$KERNEL_GO GOFLAGS= go env GOROOT) \
	|| die "could not fetch the $KERNEL_GO toolchain through the module proxy (GOPROXY=$(go env GOPROXY))"
KGO=$kernel_goroot/bin/go
[ -x "$KGO" ] || die "no go binary at $KGO"
kgo_version=$(GOTOOLCHAIN=local "$KGO" env GOVERSION)
[ "$kgo_version" = "$KERNEL_GO" ] || die "$KGO reports $kgo_version, expected $KERNEL_GO"
say "kernel toolchain: $KGO ($kgo_version; host go is $host_go)"

# Everything below uses the kernel toolchain, never switching versions.
export GOTOOLCHAIN=local
gomodcache=$(cd "$ROOT" && "$KGO" env GOMODCACHE)

# ----------------------------------------------------- 3. module download
say "go mod download (module cache: $gomodcache)"
(cd "$ROOT" && GOFLAGS=-mod=readonly "$KGO" mod download) \
	|| die "'go mod download' failed in $ROOT (the kernel needs this module to build with $KERNEL_GO: keep 'go 1.21' in go.mod, and dependencies that allow it)"

NB_HOME=${HETGAIN_NOTEBOOK_HOME:-${XDG_DATA_HOME:-$HOME/.local/share}/hetgain}
BIN=$NB_HOME/bin/gophernotes
PROXY=$NB_HOME/goproxy
STAMP_FILE=$NB_HOME/setup.stamp
stamp=$(
	{
		cat "${BASH_SOURCE[0]}"
		echo "$kgo_version $kernel_goroot $gomodcache"
		cat "$ROOT/go.mod" "$ROOT/go.sum"
	} | sha256sum | cut -d' ' -f1
)
up_to_date=0
if [ -x "$BIN" ] && [ -d "$PROXY" ] && [ -f "$STAMP_FILE" ] && [ "$(cat "$STAMP_FILE")" = "$stamp" ]; then
	up_to_date=1
fi

# ------------------------------------------------- 4. offline module proxy
if [ $up_to_date = 1 ]; then
	say "offline module proxy up to date: $PROXY"
else
	say "building offline module proxy $PROXY"
	rm -f "$STAMP_FILE"
	mkdir -p "$NB_HOME"
	graph=$(cd "$ROOT" && GOFLAGS=-mod=readonly "$KGO" mod graph) \
		|| die "'go mod graph' failed in $ROOT"
	selected=$(cd "$ROOT" && GOFLAGS=-mod=readonly "$KGO" list -m -f '{{if .Version}}{{.Path}} {{.Version}}{{end}}' all) \
		|| die "'go list -m all' failed in $ROOT"
	main_mod=$(cd "$ROOT" && "$KGO" list -m -f '{{.Path}}')
	# The kernel's `go mod tidy` (one per import block) also loads the tests
	# of the imported packages, so it needs the source of modules that our
	# own builds never fetch. Download every selected module version, in a
	# scratch module holding a copy of our go.sum (so that go.sum verifies
	# what it knows, e.g. gomacro, which the checksum database lacks): `go mod
	# download all` inside the repo would add lines to the repo's go.sum.
	say "downloading the sources of all $(wc -l <<<"$selected") selected module versions"
	dl_dir=$(mktemp -d)
	printf 'module hetgain.invalid/notebook-setup\n\ngo 1.21\n' >"$dl_dir/go.mod"
	cp "$ROOT/go.sum" "$dl_dir/go.sum"
	# shellcheck disable=SC2046
	(cd "$dl_dir" && GOFLAGS=-mod=mod "$KGO" mod download $(awk 'NF == 2 { print $1 "@" $2 }' <<<"$selected")) \
		|| { rm -rf "$dl_dir"; die "downloading the module sources failed"; }
	rm -rf "$dl_dir"
	tmp=$PROXY.tmp
	rm -rf "$tmp"
	mkdir -p "$tmp"
	# Module paths are stored case-encoded (!x for X) in the cache and proxy.
	esc() { printf '%s' "$1" | sed 's/[A-Z]/!\L&/g'; }
	declare -A sel_ver=()
	while read -r mod ver; do
		[ -n "$mod" ] && sel_ver[$mod]=$ver
	done <<<"$selected"
	# Every module of the graph gets the .mod and .info files of all its
	# cached versions (go reads superseded go.mod files while loading the
	# graph), but the source (.zip) and a one-line version list only for the
	# version this go.mod selects. So `go get` of an import without version
	# picks exactly that version, and a plugin that would need any other
	# version of a module fails at once with "reading file://.../@v/VER.zip:
	# no such file or directory" instead of clashing at plugin load time.
	n=0
	while read -r mod; do
		case "$mod" in "" | go | toolchain | "$main_mod") continue ;; esac
		src=$gomodcache/cache/download/$(esc "$mod")/@v
		[ -d "$src" ] || die "module $mod is in the graph but not in the module cache ($src)"
		dst=$tmp/$(esc "$mod")/@v
		mkdir -p "$dst"
		for f in "$src"/*.mod "$src"/*.info; do
			if [ -e "$f" ]; then ln -s "$f" "$dst/"; fi
		done
		ver=${sel_ver[$mod]:-}
		# Graph pruning leaves some selected modules without a cached .mod:
		# nothing here needs them, and the proxy does not offer them.
		if [ -n "$ver" ] && [ -e "$src/$ver.mod" ]; then
			echo "$ver" >"$dst/list"
			for f in "$src/$ver.zip" "$src/$ver.ziphash"; do
				if [ -e "$f" ]; then ln -s "$f" "$dst/"; fi
			done
			n=$((n + 1))
		fi
	done < <(printf '%s\n' "$graph" | tr ' ' '\n' | sed 's/@.*//' | sort -u)
	rm -rf "$PROXY"
	mv "$tmp" "$PROXY"
	say "offline module proxy offers $n module versions"
fi

# --------------------------------------------------------- 5. gophernotes
if [ $up_to_date = 1 ]; then
	say "gophernotes up to date: $BIN"
else
	mkdir -p "$(dirname "$BIN")"
	say "building gophernotes with $KERNEL_GO (a few minutes on a cold build cache) ..."
	t0=$(date +%s)
	# -mod=readonly: the pins live in go.mod/go.sum; fail rather than edit them.
	(cd "$ROOT" && CGO_ENABLED=1 GOFLAGS=-mod=readonly "$KGO" build -o "$BIN.tmp" github.com/gopherdata/gophernotes) \
		|| die "building gophernotes failed (is github.com/gopherdata/gophernotes still required in go.mod and pinned by internal/kerneltools/tools.go?)"
	mv -f "$BIN.tmp" "$BIN"
	echo "$stamp" >"$STAMP_FILE"
	say "built $BIN in $(($(date +%s) - t0)) s"
fi

# --------------------------------------------------------- 6. kernel spec
data_dir=$("$JUPYTER" --data-dir) || die "'$JUPYTER --data-dir' failed"
KERNEL_DIR=$data_dir/kernels/$KERNEL_NAME
mkdir -p "$KERNEL_DIR"
# Kernel environment:
#  - the kernel toolchain first on PATH, and GOROOT pointing at it: gomacro
#    builds one Go plugin per import block, with the same toolchain as the
#    kernel or the plugin won't load;
#  - GOTOOLCHAIN=local: never switch to another Go for those builds;
#  - GOPROXY=file://<offline proxy>: gomacro runs `go get` for every import
#    block;
#    the offline proxy answers with this go.mod's versions only, and never
#    goes to the network (the real proxy here answers 400/403 for unknown
#    module paths, which is fatal inside `go get`; GOPROXY=off fails for any
#    third-party import). GOSUMDB=off: the proxy's files come from the module
#    cache, already checked against go.sum; the checksum database is not
#    reachable offline. GOMODCACHE is pinned to the cache the proxy links to.
# ${PATH} is expanded by jupyter_client (>= 7) from the launching environment.
/usr/bin/python3 - "$KERNEL_DIR/kernel.json" "$BIN" "$KERNEL_DISPLAY_NAME" "$KERNEL_NAME" \
	"$kernel_goroot" "$gomodcache" "$PROXY" <<'PY' || die "writing the kernel spec failed"
import json, os, sys
path, binary, display, name, goroot, modcache, proxy = sys.argv[1:]
spec = {
    "argv": [binary, "{connection_file}"],
    "display_name": display,
    "language": "go",
    "name": name,
    "env": {
        "PATH": goroot + "/bin:${PATH}",
        "GOROOT": goroot,
        "GOTOOLCHAIN": "local",
        "GOPROXY": "file://" + proxy,
        "GOSUMDB": "off",
        "GONOPROXY": "",
        "GOPRIVATE": "",
        "GOMODCACHE": modcache,
    },
}
text = json.dumps(spec, indent=2) + "\n"
try:
    old = open(path).read()
except FileNotFoundError:
    old = None
if old != text:
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)
    print("[setup-notebooks] wrote kernel spec " + path)
else:
    print("[setup-notebooks] kernel spec up to date: " + path)
PY

specs=$("$JUPYTER" kernelspec list 2>&1) || die "'$JUPYTER kernelspec list' failed: $specs"
grep -q "^ *$KERNEL_NAME " <<<"$specs" \
	|| die "jupyter does not list the kernel '$KERNEL_NAME' (spec at $KERNEL_DIR): $specs"
say "ready: kernel '$KERNEL_NAME' -> $BIN"
