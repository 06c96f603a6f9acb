#!/usr/bin/env bash
# Build the rfop binary exactly as the Dockerfile's build stage does, without
# Docker, and check that it would run in the runtime image
# (gcr.io/distroless/base-debian12: Debian 12 glibc 2.36, no other libraries).
#
#   scripts/build-like-docker.sh          # build into a temp dir, check, clean up
#   scripts/build-like-docker.sh --keep   # keep the binary (its path is printed)
#
# The environment, build line and images below must match the Dockerfile's;
# the script checks that they do before building.
set -euo pipefail

keep=0
case "${1:-}" in
--keep) keep=1 ;;
"") ;;
-h | --help)
	sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'
	exit 0
	;;
*)
	echo "usage: $0 [--keep]" >&2
	exit 2
	;;
esac

cd "$(dirname "$0")/.."
root=$(pwd)

# The runtime image's C library: the binary must need nothing newer.
runtime_glibc=2.36
# Libraries distroless/base-debian12 provides (glibc's own).
allowed_libs='^(libc\.so\.6|libm\.so\.6|libpthread\.so\.0|libdl\.so\.2|librt\.so\.1|ld-linux-x86-64\.so\.2|ld-linux-aarch64\.so\.1)$'

fail() {
	echo "build-like-docker: FAIL: $*" >&2
	exit 1
}

command -v go >/dev/null || fail "go is not installed"
command -v gcc >/dev/null || fail "no C compiler (gcc): cgo is needed for SQLite"

# Same Go line as the image (golang:1.26-bookworm) and go.mod.
want=$(awk '/^go /{print $2; exit}' go.mod)
have=$(go env GOVERSION)
case "$have" in
go1.26*) ;;
*) fail "Go $have; the Dockerfile builds with golang:1.26 (go.mod: go $want)" ;;
esac

# The build below must be the Dockerfile's: same environment, same go build
# line (only the output path differs), same images. Refuse to go on if the
# Dockerfile has drifted, rather than vouch for a binary Docker would not build.
build_env='CGO_ENABLED=1 GOTOOLCHAIN=local GOFLAGS=-buildvcs=false'
build_cmd='go build -trimpath -ldflags="-s -w" -o /out/rfop ./cmd/rfop'
grep -qxF "ENV $build_env" Dockerfile ||
	fail "the Dockerfile's build ENV is not '$build_env': bring this script in step"
grep -qF -- "$build_cmd" Dockerfile ||
	fail "the Dockerfile does not build with '$build_cmd': bring this script in step"
grep -qx 'FROM golang:1\.26-bookworm AS build' Dockerfile ||
	fail "the Dockerfile's build image is not golang:1.26-bookworm: update this script's Go and glibc checks"
grep -qx 'FROM gcr\.io/distroless/base-debian12:nonroot' Dockerfile ||
	fail "the Dockerfile's runtime image is not distroless/base-debian12:nonroot: update this script's glibc and library checks"

out=$(mktemp -d "${TMPDIR:-/tmp}/rfop-build.XXXXXX")
if [ "$keep" = 0 ]; then
	trap 'rm -rf "$out"' EXIT
fi

echo "build-like-docker: $have, building into $out"
# The Dockerfile's ENV line, then its go build line. Nothing else from the
# caller's environment changes the build (GOFLAGS, CGO_* are reset).
# shellcheck disable=SC2086 # $build_env is three VAR=value words
env -u GOFLAGS -u CGO_CFLAGS -u CGO_LDFLAGS -u GOARCH -u GOOS $build_env \
	go build -trimpath -ldflags="-s -w" -o "$out/rfop" ./cmd/rfop

bin="$out/rfop"
[ -x "$bin" ] || fail "no binary"

# A cgo binary: dynamically linked against glibc only, stripped (-s -w).
info=$(file -b "$bin" 2>/dev/null || true)
echo "build-like-docker: $info"
readelf -h "$bin" >/dev/null 2>&1 || fail "not an ELF binary"
readelf -l "$bin" | grep -q 'Requesting program interpreter' ||
	fail "statically linked: the build did not use cgo (CGO_ENABLED=1)"
if readelf -S "$bin" | grep -q '\.symtab'; then
	fail "binary has a symbol table: -ldflags=\"-s -w\" was not applied"
fi
needed=$(readelf -d "$bin" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p')
for lib in $needed; do
	[[ $lib =~ $allowed_libs ]] || fail "needs $lib, which distroless/base-debian12 does not have"
done
echo "build-like-docker: needs $(echo $needed | tr ' ' ',')"
newest=$(objdump -T "$bin" | grep -o 'GLIBC_[0-9][0-9.]*' | sed 's/GLIBC_//' | sort -uV | tail -1)
if [ -n "$newest" ] && [ "$(printf '%s\n%s\n' "$newest" "$runtime_glibc" | sort -V | tail -1)" != "$runtime_glibc" ]; then
	fail "needs glibc $newest; the runtime image has $runtime_glibc"
fi
echo "build-like-docker: newest glibc symbol version GLIBC_$newest (runtime has $runtime_glibc)"
if strings "$bin" | grep -q -- "$root"; then
	fail "the binary contains the source path $root: -trimpath was not applied"
fi

# It runs: --help (what the Dockerfile checks) and a quick selfplay.
help=$("$bin" --help) || fail "rfop --help exited $?"
grep -q '^Usage: rfop' <<<"$help" || fail "rfop --help printed no usage"
"$bin" selfplay --games 20 --seed 1 >/dev/null || fail "rfop selfplay failed"

# No token is baked in.
if strings "$bin" | grep -Eq '[MN][A-Za-z0-9_-]{23,25}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,}'; then
	fail "the binary contains something shaped like a Discord token"
fi

size=$(stat -c %s "$bin")
sum=$(sha256sum "$bin" | cut -d' ' -f1)
echo "build-like-docker: OK: $bin ($size bytes, sha256 $sum)"
if [ "$keep" = 0 ]; then
	echo "build-like-docker: (removed; run with --keep to keep it)"
fi
